import { expect, test } from 'vitest';
import { OptionFileError, parseOptionFile } from './option-file.ts';

test('reads the server groups and skips the others', () => {
  const text = [
    '# audit settings',
    '[client]',
    'user = app',
    '[mariadb]',
    'server_audit_events = CONNECT,QUERY_DDL  # who connects, what changes',
    'server-audit-excl-users="app user"',
    'skip-name-resolve',
    '[mysqld-10.11]',
    "server_audit_file_path = '/var/log/mysql/audit.log'",
    '!includedir /etc/mysql/conf.d/',
  ].join('\n');
  const parsed = parseOptionFile(text, 'audit.cnf');
  expect(parsed.options).toEqual({
    server_audit_events: 'CONNECT,QUERY_DDL',
    'server-audit-excl-users': 'app user',
    'skip-name-resolve': 'ON',
    server_audit_file_path: '/var/log/mysql/audit.log',
  });
  expect(parsed.ignored).toEqual([
    "audit.cnf:10: !includedir is not followed (give the included file's settings directly)",
  ]);
});

test.for([
  [
    'server_audit_events = CONNECT',
    "audit.cnf:1: 'server_audit_events = CONNECT' comes before any [group] header",
  ],
  ['[mysqld\nx=1', 'audit.cnf:1: a group header looks like [mysqld]'],
  ['[mysqld]\nx = "unclosed', 'audit.cnf:2: the quote " is never closed'],
  ['[mysqld]\n\nbad name = 1', "audit.cnf:3: 'bad name' is not an option name"],
  ['[mysqld]\nx = "a" b', 'audit.cnf:2: text after the closing quote'],
] as [string, string][])('a malformed file names its line: %s', ([text, message]) => {
  expect(() => parseOptionFile(text, 'audit.cnf')).toThrow(OptionFileError);
  expect(() => parseOptionFile(text, 'audit.cnf')).toThrow(message);
});
