import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { profiles } from '../profiles/index.ts';
import { type SystemVariables, systemVariableOf } from '../servers/system-variables.ts';
import {
  type ChangedOption,
  changedOptions,
  decideDesign,
  expectedDesign,
  likePattern,
  plainCnfValue,
  setGlobalLiteral,
} from './option-classes.ts';

// Recorded from MariaDB 10.11.19 with server_audit installed (the file says how).
const recorded = JSON.parse(
  readFileSync(new URL('../../fixtures/system-variables/mariadb-10.11.json', import.meta.url), 'utf8'),
) as { rows: Record<string, unknown>[] };
const mariadb: SystemVariables = { kind: 'rows', rows: recorded.rows.map(systemVariableOf) };
const row = (name: string) => {
  const found = mariadb.kind === 'rows' && mariadb.rows.find((r) => r.name === name);
  if (!found) throw new Error(`${name} is not in the recorded rows`);
  return found;
};
const change = (name: string, base: string | null, head: string | null): ChangedOption => ({
  name,
  base,
  head,
});

describe('changedOptions: the parsed-option diff', () => {
  test('names lose loose- and dashes; values lose the quotes my.cnf needed; equal values are no change', () => {
    const base = { 'loose-server_audit_events': 'QUERY_DDL', 'loose-server_audit_file_rotations': '3' };
    const head = {
      'loose-server-audit-events': 'QUERY_DDL,QUERY_DML',
      'loose-server_audit_file_rotations': '3',
      'loose-server_audit_syslog_ident': '"audit #1"',
    };
    expect(changedOptions(base, head)).toEqual([
      change('server_audit_events', 'QUERY_DDL', 'QUERY_DDL,QUERY_DML'),
      change('server_audit_syslog_ident', null, 'audit #1'),
    ]);
    expect(changedOptions(base, { ...base })).toEqual([]);
  });
  test.for([
    ['CONNECT', 'CONNECT'],
    ['"a b"', 'a b'],
    ['"say \\"hi\\""', 'say "hi"'],
    ['""', ''],
  ])('my.cnf value %s reads as %s', ([written, plain]) => {
    expect(plainCnfValue(written as string)).toBe(plain);
  });
});

describe('setGlobalLiteral: option-file values as SET GLOBAL takes them', () => {
  test.for([
    ['server_audit_file_rotations', '5', '5'],
    ['server_audit_file_rotate_size', '1M', '1048576'],
    ['server_audit_file_rotate_size', '2k', '2048'],
    ['server_audit_logging', 'on', 'ON'],
    ['server_audit_logging', '0', 'OFF'],
    ['long_query_time', '0.5', '0.5'],
    ['server_audit_events', 'QUERY_DDL,QUERY_DML', "'QUERY_DDL,QUERY_DML'"],
    ['server_audit_syslog_ident', "it's", "'it''s'"],
    ['server_audit_events', null, 'DEFAULT'],
  ] as const)('%s = %s → %s', ([name, value, literal]) => {
    expect(setGlobalLiteral(row(name), value)).toBe(literal);
  });
  test.for([
    ['server_audit_file_rotations', 'five'],
    ['server_audit_logging', 'maybe'],
    ['long_query_time', '1s'],
  ] as const)('%s = %s cannot be set: a problem naming it', ([name, value]) => {
    expect(setGlobalLiteral(row(name), value)).toEqual({
      problem: expect.stringContaining(`${name}=${value}`),
    });
  });
});

describe('decideDesign: the server classifies the changed options', () => {
  test('dynamic and global (server_audit_events): one toggled run, each arm its own value, DEFAULT where unset', () => {
    const decision = decideDesign(
      [
        change('server_audit_events', 'QUERY_DDL', 'QUERY_DDL,QUERY_DML'),
        change('server_audit_mode', null, '1'),
      ],
      mariadb,
    );
    expect(decision).toEqual({
      design: 'toggle',
      why: 'server_audit_events, server_audit_mode are dynamic and global (READ_ONLY = NO, VARIABLE_SCOPE = GLOBAL): one toggled run, SET GLOBAL per arm',
      arms: {
        base: { server_audit_events: "'QUERY_DDL'", server_audit_mode: 'DEFAULT' },
        head: { server_audit_events: "'QUERY_DDL,QUERY_DML'", server_audit_mode: '1' },
      },
    });
  });
  test('a session-scope option: separate sysbench runs that reconnect, no restart', () => {
    const decision = decideDesign(
      [change('long_query_time', '10', '0.5'), change('server_audit_events', 'CONNECT', 'QUERY')],
      mariadb,
    );
    expect(decision.design).toBe('reconnect');
    expect(decision.why).toMatch(
      /^long_query_time is dynamic with session scope .*; server_audit_events is dynamic/,
    );
    expect(decision.arms?.head).toEqual({ long_query_time: '0.5', server_audit_events: "'QUERY'" });
  });
  test.for([
    ['innodb_log_buffer_size', 'innodb_log_buffer_size is read-only (READ_ONLY = YES)'],
    ['pseudo_thread_id', 'pseudo_thread_id has no global value (VARIABLE_SCOPE = SESSION ONLY)'],
    ['server_audit', 'server_audit is not a system variable of this server (a startup-only option)'],
  ] as const)('%s: restarts, saying why', ([name, why]) => {
    const decision = decideDesign(
      [change('server_audit_events', 'CONNECT', 'QUERY'), change(name, null, '32M')],
      mariadb,
    );
    expect(decision).toEqual({
      design: 'restarts',
      why: `${why}: a restart before each arm, base and head in ABBA order`,
      arms: null,
    });
  });
  test('a value SET GLOBAL does not take restarts too', () => {
    const decision = decideDesign([change('long_query_time', '10', '1s')], mariadb);
    expect(decision).toMatchObject({
      design: 'restarts',
      why: expect.stringMatching(/^long_query_time=1s is not a number/),
    });
  });
  test('a server that gives no READ_ONLY (MySQL) restarts, saying so', () => {
    const decision = decideDesign([change('server_audit_events', 'CONNECT', 'QUERY')], {
      kind: 'unavailable',
      why: "mysql 8.0.36 gives no READ_ONLY for its variables (information_schema.SYSTEM_VARIABLES: Unknown table 'SYSTEM_VARIABLES' in information_schema)",
    });
    expect(decision.design).toBe('restarts');
    expect(decision.why).toMatch(
      /^server_audit_events: mysql 8.0.36 gives no READ_ONLY .*, so a restart before each arm/,
    );
  });
});

describe('expectedDesign: what gate --list expects from the profile', () => {
  test("the plugin's own variables: toggled, the server to confirm", () => {
    const expected = expectedDesign(
      [change('server_audit_events', 'QUERY_DDL', 'QUERY_DDL,QUERY_DML')],
      profiles.server_audit,
    );
    expect(expected.design).toBe('toggle');
    expect(expected.why).toMatch(
      /^server_audit_events is SERVER_AUDIT's own, dynamic and global on MariaDB: expects one toggled run, SET GLOBAL per arm; the server confirms it from information_schema.SYSTEM_VARIABLES once the plugin is installed/,
    );
  });
  test('another option, or a MySQL-only plugin: restarts expected', () => {
    const other = expectedDesign([change('innodb_log_buffer_size', null, '32M')], profiles.server_audit);
    expect(other).toMatchObject({
      design: 'restarts',
      why: expect.stringMatching(/^innodb_log_buffer_size is not SERVER_AUDIT's/),
    });
    expect(expectedDesign([change('audit_log_policy', null, 'ALL')], profiles.null_audit).design).toBe(
      'restarts',
    );
  });
  test.for([
    ['server\\_audit%', 'server_audit_events', true],
    ['server\\_audit%', 'serverxaudit_events', false],
    ['audit\\_log\\_%', 'audit_log_policy', true],
    ['a_c', 'abc', true],
  ] as const)('LIKE %s matches %s: %s', ([like, name, matches]) => {
    expect(likePattern(like).test(name)).toBe(matches);
  });
});
