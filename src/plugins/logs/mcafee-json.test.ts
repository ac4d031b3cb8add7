import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE } from './framing.ts';
import { parseMcafeeJson } from './mcafee-json.ts';

// Line 1: the seed report (plugin 1.0.9, MySQL 5.6.12). Line 2: MySQL 8.0.33 build notes (zhaopinglu/mysql-audit,
// duplicated "os_user"). Lines 3-4: 2014 blog (arstercz), no "status". Line 5: 2017 blog, socket client fields.
// See fixtures/logs/SOURCES.md.
const recorded = readFileSync(new URL('../../../fixtures/logs/mcafee-audit.log', import.meta.url), 'utf8');

// Synthetic: no captured header line exists; keys follow start_msg_format() in src/audit_handler.cc.
const header =
  '{"msg-type":"header","date":"1705746440000","audit-version":"1.1.14-2","audit-protocol-version":"1.0","hostname":"db1","mysql-version":"8.0.33","mysql-program":"/usr/sbin/mysqld","mysql-socket":"/var/lib/mysql/mysql.sock","mysql-port":"3306","server_pid":"918500"}';

describe('documented McAfee/Trellix JSON lines', () => {
  test('every line parses', () => {
    const { events, rejected } = parseMcafeeJson(recorded);
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(5);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [
      0,
      {
        time: '2017-01-19T03:05:22.970Z',
        user: 'root',
        host: '127.0.0.1',
        connectionId: 557,
        queryId: 61_687_115,
        operation: 'QUERY',
        database: 'sysbench_test',
        object: 'sysbench_test.sbtest7',
        queryText: 'SELECT c FROM sbtest7 WHERE id=5015211',
        errorCode: null,
      },
    ],
    [1, { host: 'localhost', connectionId: 8, object: 'test.test_log', errorCode: 0 }],
    [2, { time: '2014-08-28T11:46:39.778Z', errorCode: null }],
    [3, { queryText: 'select * from t2 where name = "cz"' }],
    [4, { object: 'information_schema./tmp/#sql_37a1_0', queryText: 'show databases', errorCode: null }],
  ])('line %i', ([i, expected]) => {
    expect(parseMcafeeJson(recorded).events[i]).toMatchObject(expected);
  });
});

describe('records described by the source', () => {
  const activity = (fields: string) =>
    `{"msg-type":"activity","date":"1705746443488","thread-id":"9","query-id":"0","user":"app","priv_user":"","ip":"10.0.0.5",${fields}}\n`;

  test('a header is skipped, neither an event nor a rejection', () => {
    expect(parseMcafeeJson(`${header}\n`)).toEqual({ events: [], rejected: [] });
  });

  test.for<[string, string, Partial<AuditEvent>]>([
    [
      'failed login',
      '"status":"1045","cmd":"Failed Login","query":"Failed Login"',
      { operation: 'FAILED_CONNECT', errorCode: 1045, queryText: '' },
    ],
    [
      'connect',
      '"status":"0","cmd":"Connect","query":"Connect"',
      { operation: 'CONNECT', host: '10.0.0.5', queryText: '' },
    ],
    ['quit', '"cmd":"Quit","query":"Quit"', { operation: 'DISCONNECT' }],
    ['protocol command', '"cmd":"Init DB","query":"n/a"', { operation: 'INIT_DB', queryText: '' }],
    [
      'failed statement',
      '"status":"1146","cmd":"select","query":"select * from nope"',
      { operation: 'QUERY', errorCode: 1146 },
    ],
    [
      'several objects',
      '"cmd":"insert_select","objects":[{"db":"a","name":"t1","obj_type":"TABLE"},{"db":"b","name":"t2","obj_type":"TABLE"}],"query":"insert into a.t1 select * from b.t2"',
      { database: 'a', object: 'a.t1,b.t2' },
    ],
  ])('%s', ([, fields, expected]) => {
    const { events, rejected } = parseMcafeeJson(activity(fields));
    expect(rejected).toEqual([]);
    expect(events[0]).toMatchObject(expected);
  });

  test.for<[string, string, string]>([
    ['not JSON', '{"msg-type":"activity",', 'invalid JSON'],
    ['an array', '[1,2]', 'not a JSON object'],
    ['unknown type', '{"msg-type":"footer"}', 'unknown msg-type "footer"'],
    [
      'a bad date',
      '{"msg-type":"activity","date":"yesterday","cmd":"select"}',
      'date must be epoch milliseconds',
    ],
    ['no cmd', '{"msg-type":"activity","date":"1705746443488"}', 'missing cmd'],
    [
      'a bad id',
      '{"msg-type":"activity","date":"1","thread-id":"x","cmd":"select"}',
      'must be decimal numbers',
    ],
    [
      'bad objects',
      '{"msg-type":"activity","date":"1","cmd":"select","objects":"t1"}',
      'objects must be an array',
    ],
  ])('rejects %s', ([, line, reason]) => {
    expect(parseMcafeeJson(`${header}\n${line}\n`).rejected).toEqual([
      { line: 2, text: line, reason: expect.stringContaining(reason) },
    ]);
  });

  test('a last line without its newline is incomplete, even if it happens to be valid JSON', () => {
    const line = activity('"cmd":"select","query":"select 1"').trimEnd();
    expect(parseMcafeeJson(line).rejected).toEqual([{ line: 1, text: line, reason: INCOMPLETE_LINE }]);
  });
});

describe('a log recorded live (v1.2.5 on MariaDB 10.11.19, fixtures/logs/SOURCES.md)', () => {
  const live = readFileSync(
    new URL('../../../fixtures/logs/mcafee-audit-10.11.19.log', import.meta.url),
    'utf8',
  );
  const { events, rejected } = parseMcafeeJson(live);

  test('every line parses; the header is skipped', () => {
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(25);
  });

  test('the missing table is logged with 1146, the syntax error not at all, the password masked', () => {
    expect(events.find((e) => e.queryText.includes('sbtest.missing'))).toMatchObject({
      errorCode: 1146,
      object: 'sbtest.missing',
    });
    expect(events.some((e) => e.queryText.includes('SELEC 1'))).toBe(false);
    const user = events.find((e) => e.queryText.startsWith('CREATE USER'));
    expect(user?.queryText).toContain("'***'");
    expect(live).not.toContain('Secret-Pw-1');
  });
});
