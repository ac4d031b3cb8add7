import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { OptionFileError, parseOptionFile, RECORDED_GROUPS } from './option-file.ts';
import { parseServerHelp } from './server-help.ts';

const help = (name: string) =>
  parseServerHelp(readFileSync(new URL(`../../fixtures/server-help/${name}`, import.meta.url), 'utf8'));

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
  expect(parsed.groups.leftOut.map((g) => `${g.source}: ${g.name}`)).toEqual([
    'audit.cnf:2: [client] (1 line)',
  ]);
});

// A Galera node's file as configuration management deploys it: the server reads [client-server] and [galera] too.
const galeraNode = [
  '[client-server]',
  'socket = /run/mysqld/mysqld.sock',
  'port = 3306',
  '[client]',
  'password = "client-secret"',
  '[mysqld]',
  'plugin_load_add = simple_password_check',
  '[galera]',
  'wsrep_cluster_address = gcomm://10.0.0.1,10.0.0.2',
  'binlog_format = ROW',
  '[MariaDB-10.11]',
  'plugin_load_add = unix_socket,server_audit',
  '[mysqld-8.0]',
  'default_authentication_plugin = mysql_native_password',
  '[mysql_cluster]',
  'ndb_connectstring = 10.0.0.9',
  '[embedded]',
].join('\n');

describe('the groups the server reads, by its own --help --verbose', () => {
  test.for([
    [
      'MariaDB 10.11, recorded',
      RECORDED_GROUPS,
      ['client-server', 'mysqld', 'galera', 'mariadb-10.11'],
      ['[client] (1 line)', '[mysqld-8.0] (1 line)', '[mysql_cluster] (1 line)'],
    ],
    [
      'MariaDB 11.8',
      help('mariadb-11.8.txt').groups,
      ['client-server', 'mysqld', 'galera'],
      ['[client] (1 line)', '[mariadb-10.11] (1 line)', '[mysqld-8.0] (1 line)', '[mysql_cluster] (1 line)'],
    ],
    [
      'MySQL 9.7',
      help('mysql-9.7.txt').groups,
      ['mysqld', 'mysql_cluster'],
      [
        '[client-server] (2 lines)',
        '[client] (1 line)',
        '[galera] (2 lines)',
        '[mariadb-10.11] (1 line)',
        '[mysqld-8.0] (1 line)',
      ],
    ],
  ] as const)('%s', ([, groups, read, leftOut]) => {
    if (!groups) throw new Error('the fixture has no groups line');
    const parsed = parseOptionFile(galeraNode, 'node.cnf', groups);
    expect(parsed.groups.read).toEqual(read);
    expect(parsed.groups.leftOut.map((g) => g.name)).toEqual(leftOut);
    for (const left of parsed.groups.leftOut) expect(left.why).toContain(groups.from);
    // A group it does not read never reaches the options, and no value of it is named.
    expect(JSON.stringify(parsed)).not.toContain('client-secret');
  });

  test('each option says its line and group; plugin_load_add lines add up, as the server adds them', () => {
    const parsed = parseOptionFile(galeraNode, 'node.cnf');
    expect(parsed.lines.map((l) => `${l.source} ${l.name}`)).toEqual([
      'node.cnf:2 [client-server] socket',
      'node.cnf:3 [client-server] port',
      'node.cnf:7 [mysqld] plugin_load_add',
      'node.cnf:9 [galera] wsrep_cluster_address',
      'node.cnf:10 [galera] binlog_format',
      'node.cnf:12 [mariadb-10.11] plugin_load_add',
    ]);
    expect(parsed.options.plugin_load_add).toBe('simple_password_check;unix_socket,server_audit');
  });

  test('the groups line of each recorded help, and who said it', () => {
    expect(help('mariadb-10.11.txt').groups).toEqual({
      names: RECORDED_GROUPS.names,
      from: "mariadbd 10.11.19-MariaDB-0+deb12u1's --help --verbose",
    });
    expect(help('mysql-9.7.txt').groups?.names).toEqual(['mysql_cluster', 'mysqld', 'server', 'mysqld-9.7']);
  });
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
  ['[my*sqld]\nx=1', 'audit.cnf:1: the group name "my*sqld" holds characters other than letters'],
  ['[mysqld|.*]\nx=1', 'audit.cnf:1: the group name "mysqld|.*" holds characters other than'],
] as [string, string][])('a malformed file names its line: %s', ([text, message]) => {
  expect(() => parseOptionFile(text, 'audit.cnf')).toThrow(OptionFileError);
  expect(() => parseOptionFile(text, 'audit.cnf')).toThrow(message);
});
