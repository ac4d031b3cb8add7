import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent, LogParser } from '../audit-event.ts';
import { INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';
import {
  type PerconaFormat,
  parsePerconaCsv,
  parsePerconaJson,
  parsePerconaNew,
  parsePerconaOld,
  percona,
} from './percona-audit-log.ts';

// Sources are cited at the top of the XML fixtures and in fixtures/logs/SOURCES.md: Percona docs examples (OLD, NEW,
// JSON, CSV), Charmed MySQL docs (canonical/mysql-k8s-operator, real JSON login records from Percona's plugin) and the
// percona-server mtr result audit_log_default_db.result (CSV, with ids and times masked by mtr).
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');

const all = (parse: LogParser, text: string): AuditEvent[] => {
  const { events, rejected } = parse(text);
  expect(rejected).toEqual([]);
  return events;
};

describe('OLD (attributes)', () => {
  const events = () => all(parsePerconaOld, fixture('percona-old.xml'));

  test('the Audit header is skipped and the other records parse', () => {
    expect(events()).toHaveLength(4);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [
      0,
      {
        time: '2021-06-30T11:57:14Z',
        user: 'root',
        host: 'localhost',
        connectionId: 3,
        queryId: null,
        operation: 'QUERY',
        database: '',
        object: '',
        queryText: "select * from information_schema.PLUGINS where PLUGIN_NAME like '%audit%'",
        errorCode: 0,
      },
    ],
    [1, { time: '2021-06-29T19:33:34Z', connectionId: 14, queryText: "show variables like 'audit%'" }],
    [
      2,
      {
        time: '2021-06-29T19:34:38Z',
        user: 'root',
        connectionId: 14,
        operation: 'DISCONNECT',
        queryText: '',
      },
    ],
    [3, { time: '2016-08-18T15:10:47Z', connectionId: 61, queryText: 'create database world' }],
  ])('record %i', ([i, expected]) => {
    expect(events()[i]).toMatchObject(expected);
  });

  test('an escaped statement is decoded, and a name-less host falls back to the IP', () => {
    const record = `<AUDIT_RECORD NAME="Query" RECORD="7_x" TIMESTAMP="2024-01-01T00:00:01 UTC" COMMAND_CLASS="select"
  CONNECTION_ID="9" STATUS="1146" SQLTEXT="select &quot;a&amp;b&quot;&#10;from t" USER="app[app] @  [10.0.0.5]"
  HOST="" OS_USER="" IP="10.0.0.5" DB="shop"/>\n`;
    expect(all(parsePerconaOld, record)[0]).toMatchObject({
      user: 'app',
      host: '10.0.0.5',
      database: 'shop',
      errorCode: 1146,
      queryText: 'select "a&b"\nfrom t',
    });
  });

  test('a failed login is FAILED_CONNECT with its error', () => {
    const record = `<AUDIT_RECORD NAME="Connect" RECORD="8_x" TIMESTAMP="2024-01-01T00:00:02 UTC" CONNECTION_ID="10"
  STATUS="1045" USER="user3" PRIV_USER="" OS_LOGIN="" PROXY_USER="" HOST="localhost" IP="" DB=""/>\n`;
    expect(all(parsePerconaOld, record)[0]).toMatchObject({
      user: 'user3',
      operation: 'FAILED_CONNECT',
      errorCode: 1045,
    });
  });
});

describe('NEW (elements)', () => {
  test.for<[number, Partial<AuditEvent>]>([
    [
      0,
      {
        time: '2021-06-30T16:08:06Z',
        user: 'root',
        connectionId: 2,
        operation: 'QUERY',
        queryText: 'select id, holder from one',
      },
    ],
    [
      1,
      {
        time: '2014-04-28T11:02:59Z',
        user: '',
        host: '',
        connectionId: 36,
        operation: 'DISCONNECT',
        errorCode: 0,
      },
    ],
  ])('record %i', ([i, expected]) => {
    const events = all(parsePerconaNew, fixture('percona-new.xml'));
    expect(events).toHaveLength(2);
    expect(events[i]).toMatchObject(expected);
  });

  // A raw < or > in the options would break the framing itself and be reported; mysqld's argv hardly holds one.
  test('a header whose unescaped STARTUP_OPTIONS holds quotes is still skipped', () => {
    const old = '<AUDIT_RECORD\n  NAME="Audit"\n  STARTUP_OPTIONS="--init-file="/etc/init.sql""\n/>\n';
    expect(parsePerconaOld(old)).toEqual({ events: [], rejected: [] });
  });

  test('the NoAudit footer is skipped', () => {
    const footer =
      '<AUDIT_RECORD>\n  <NAME>NoAudit</NAME>\n  <RECORD>9_x</RECORD>\n</AUDIT_RECORD>\n</AUDIT>\n';
    expect(parsePerconaNew(footer)).toEqual({ events: [], rejected: [] });
  });
});

describe('JSON', () => {
  const events = () => all(parsePerconaJson, fixture('percona-audit.log'));

  test.for<[number, Partial<AuditEvent>]>([
    // Charmed MySQL: failed logins (1156, bad handshake) from a monitoring host, then successful ones.
    [
      0,
      {
        time: '2024-09-03T01:53:14Z',
        user: '',
        host: 'juju-da2225-8',
        connectionId: 988,
        operation: 'FAILED_CONNECT',
        errorCode: 1156,
      },
    ],
    [1, { user: 'serverconfig', connectionId: 989, operation: 'CONNECT', errorCode: 0 }],
    [2, { user: 'serverconfig', connectionId: 989, operation: 'DISCONNECT' }],
    [6, { user: 'clusteradmin', host: 'localhost', connectionId: 992, operation: 'CONNECT' }],
    [
      10,
      {
        time: '2021-06-30T15:07:58Z',
        user: 'root',
        host: 'localhost',
        operation: 'QUERY',
        queryText: 'show databases',
      },
    ],
    // 2014: no "db" field yet.
    [11, { time: '2014-08-27T10:44:19Z', connectionId: 37, database: '' }],
  ])('record %i', ([i, expected]) => {
    expect(events()).toHaveLength(12);
    expect(events()[i]).toMatchObject(expected);
  });

  test.for<[string, string, string]>([
    ['not JSON', '{"audit_record":', 'invalid JSON'],
    ['no audit_record', '{"record":{}}', 'expected {"audit_record"'],
    [
      'a bad connection id',
      '{"audit_record":{"name":"Query","timestamp":"t","connection_id":"x","status":0}}',
      'CONNECTION_ID must be a number',
    ],
    [
      'a bad status',
      '{"audit_record":{"name":"Query","timestamp":"t","connection_id":"1","status":"-1"}}',
      'STATUS must be a number',
    ],
    ['no name', '{"audit_record":{"timestamp":"t","connection_id":"1"}}', 'missing NAME'],
  ])('rejects %s', ([, line, reason]) => {
    expect(parsePerconaJson(`${line}\n`).rejected).toEqual([
      { line: 1, text: line, reason: expect.stringContaining(reason) },
    ]);
  });
});

describe('CSV', () => {
  test('documented lines, 12 fields (8.0) and 11 (2014, no db)', () => {
    expect(all(parsePerconaCsv, fixture('percona-audit.csv'))).toMatchObject([
      {
        time: '2021-06-30T16:19:00Z',
        user: 'root',
        connectionId: 2,
        queryText: 'select count(*) from one',
        errorCode: 0,
      },
      { time: '2014-08-27T10:47:23Z', connectionId: 37, queryText: 'show databases', database: '' },
    ]);
  });

  // mtr masks record ids, times and connection ids; fill them in so the records are what the plugin wrote.
  const mtr = fixture('percona-audit-mtr.csv')
    .replaceAll('"<ID>","<DATETIME>"', '"1_2024-01-01T00:00:00","2024-01-01T00:00:00 UTC"')
    .replaceAll('"<CONN_ID>"', '"21"');

  test.for<[number, Partial<AuditEvent>]>([
    [0, { operation: 'QUERY', queryText: "INSTALL PLUGIN audit_log SONAME 'audit_log.so'", database: '' }],
    [1, { user: 'root', host: 'localhost', operation: 'DISCONNECT', database: 'test' }],
    [4, { user: 'user1', queryText: 'use \t`db1`', database: 'db1' }],
    [5, { user: 'user2', operation: 'CHANGE_USER', errorCode: 1044 }],
    [8, { user: 'user2', operation: 'FAILED_CONNECT', errorCode: 1045 }],
    [22, { database: 'ąžąžąžą', queryText: 'use ąžąžąžą' }],
    [28, { operation: 'INIT_DB', queryText: '', errorCode: 0 }],
  ])('mtr record %i', ([i, expected]) => {
    const events = all(parsePerconaCsv, mtr);
    expect(events).toHaveLength(31);
    expect(events[i]).toMatchObject({ time: '2024-01-01T00:00:00Z', connectionId: 21, ...expected });
  });

  test('a statement with newlines and quotes spans lines inside its quotes', () => {
    const text =
      '"Query","5_x","2024-01-01T00:00:00 UTC","select","3",0,"select ""a""\n, 2\nfrom t","u[u] @ h []","h","","",""\n';
    expect(all(parsePerconaCsv, text)[0]).toMatchObject({ queryText: 'select "a"\n, 2\nfrom t', user: 'u' });
  });

  test.for<[string, string, { line: number; reason: string }]>([
    [
      'too few fields',
      '"Query","5_x","t","select","3",0\n',
      { line: 2, reason: 'expected 11 or 12 fields for "Query", got 6' },
    ],
    [
      'a quoted status',
      '"Quit","5_x","t","3","0","u","u","","","h","",""\n',
      { line: 2, reason: 'STATUS must be a bare number' },
    ],
    [
      'text after a closing quote',
      '"Query"x,"5_x"\n',
      { line: 2, reason: 'expected "," at column 8, got "x"' },
    ],
    [
      'an unclosed quote at the end',
      '"Query","5_x","t","select","3",0,"select\n',
      { line: 2, reason: INCOMPLETE_RECORD },
    ],
    ['a last line without newline', '"Query","5_x"', { line: 2, reason: INCOMPLETE_LINE }],
  ])('rejects %s', ([, text, expected]) => {
    const { events, rejected } = parsePerconaCsv(`${fixture('percona-audit.csv').split('\n')[0]}\n${text}`);
    expect(events).toHaveLength(1);
    expect(rejected.map(({ line, reason }) => ({ line, reason }))).toEqual([expected]);
  });
});

test.for<[PerconaFormat, LogParser]>([
  ['OLD', parsePerconaOld],
  ['NEW', parsePerconaNew],
  ['JSON', parsePerconaJson],
  ['CSV', parsePerconaCsv],
])('percona(%s) selects its parser', ([format, parser]) => {
  expect(percona(format)).toBe(parser);
});
