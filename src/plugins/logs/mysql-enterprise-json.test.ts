import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';
import { parseMysqlEnterpriseJson } from './mysql-enterprise-json.ts';

// mysql-enterprise-8.0.22.log: a real MySQL 8.0.22-commercial log, one object per line with trailing commas
// (elastic/beats x-pack/filebeat/module/mysqlenterprise/audit/test/mysql_audit_test.log).
// mysql-enterprise-refman.log: the manual's examples (refman 8.4 "Audit Log File Formats", JSON section) in an array.
// mysql-enterprise-blog-2018.log: the connect example of the MySQL blog "Audit Logs - JSON format logging" (2018).
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');

describe('real 8.0.22 log, one object per line', () => {
  const parsed = () => parseMysqlEnterpriseJson(fixture('mysql-enterprise-8.0.22.log'));

  test('startup and shutdown are skipped, everything else is an event', () => {
    const { events, rejected } = parsed();
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(29);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [
      0,
      {
        time: '2020-10-19T19:25:51Z',
        user: 'root',
        host: 'localhost',
        connectionId: 13,
        queryId: null,
        operation: 'CONNECT',
        database: '',
        object: '',
        queryText: '',
        errorCode: 0,
      },
    ],
    [1, { operation: 'QUERY', queryText: 'select @@version_comment limit 1', errorCode: 0 }],
    [2, { operation: 'DISCONNECT', errorCode: null }],
    // A failed statement keeps its text as sent, password included: the plugin masks only what parses.
    [
      5,
      {
        operation: 'QUERY',
        queryText: "GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' IDENTIFIED BY 'password'",
        errorCode: 1064,
      },
    ],
    [9, { queryText: "CREATE USER 'audit_test_user'@'localhost' IDENTIFIED BY <secret>", errorCode: 1396 }],
    [15, { user: 'audit_test_user2', host: 'hades.home', connectionId: 16, operation: 'CONNECT' }],
    [19, { operation: 'INIT_DB', queryText: '', errorCode: 0 }],
    [23, { operation: 'INSERT', database: 'audit_test', object: 'audit_test_table', errorCode: null }],
    [25, { operation: 'READ', queryText: 'select * from audit_test_table' }],
  ])('event %i', ([i, expected]) => {
    expect(parsed().events[i]).toMatchObject(expected);
  });
});

describe("the manual's examples, pretty-printed in an array", () => {
  const { events, rejected } = parseMysqlEnterpriseJson(fixture('mysql-enterprise-refman.log'));

  test('the valid examples parse', () => {
    expect(events).toMatchObject([
      {
        time: '2019-10-03T14:24:45Z',
        user: 'root',
        host: 'localhost',
        connectionId: 5,
        operation: 'DISCONNECT',
      },
      { time: '2019-10-03T14:23:35Z', operation: 'QUERY', queryText: 'SHOW VARIABLES', errorCode: 0 },
      {
        operation: 'INSERT',
        database: 'test',
        object: 't1',
        queryText: 'INSERT INTO t1 (i) VALUES(1),(2),(3)',
      },
    ]);
  });

  // The manual elides connection attributes with "...", and its query-statistics example lacks a comma and uses
  // curly quotes: every piece of them is reported with its line, none is dropped.
  test('the broken examples are rejected where they start', () => {
    expect(rejected.map(({ line, reason }) => [line, reason.replace(/:.*/, '')])).toEqual([
      [21, 'invalid JSON'],
      [56, 'line break inside a JSON string'],
      ...[63, 64, 65, 66, 67, 68, 69, 70, 71].map((line) => [line, 'not part of a JSON object']),
    ]);
  });
});

describe('other records', () => {
  test('the 2018 blog connect example', () => {
    expect(parseMysqlEnterpriseJson(fixture('mysql-enterprise-blog-2018.log')).events).toMatchObject([
      {
        time: '2018-05-24T23:15:07Z',
        user: 'user',
        host: 'localhost',
        connectionId: 12,
        database: 'bank_db',
      },
    ]);
  });

  const record = (body: string) =>
    `{ "timestamp": "2024-01-01 10:00:00", "id": 0, "connection_id": 7, "account": { "user": "", "host": "" }, "login": { "user": "bob", "os": "", "ip": "10.0.0.8", "proxy": "" }, ${body} },\n`;

  test.for<[string, string, Partial<AuditEvent>]>([
    [
      'a failed login',
      '"class": "connection", "event": "connect", "connection_data": { "connection_type": "tcp/ip", "status": 1045, "db": "" }',
      { user: 'bob', host: '10.0.0.8', operation: 'FAILED_CONNECT', errorCode: 1045 },
    ],
    [
      'a change of user',
      '"class": "connection", "event": "change_user", "connection_data": { "status": 0, "db": "x" }',
      { operation: 'CHANGE_USER', database: 'x' },
    ],
    [
      'an audit_log_filter query event',
      '"class": "query", "event": "query_start", "query_data": { "query": "SELECT 1", "status": 0, "sql_command": "select" }',
      { operation: 'QUERY_QUERY_START', queryText: 'SELECT 1' },
    ],
  ])('%s', ([, body, expected]) => {
    const { events, rejected } = parseMysqlEnterpriseJson(`[\n${record(body)}`);
    expect(rejected).toEqual([]);
    expect(events[0]).toMatchObject(expected);
  });

  test("Percona audit_log_filter's composite user is split", () => {
    const body = `"class": "general", "event": "status", "general_data": { "command": "Query", "query": "SELECT 2", "status": 0 }`;
    const text = record(body).replace('"user": "bob"', '"user": "root[root] @ localhost []"');
    expect(parseMysqlEnterpriseJson(text).events[0]).toMatchObject({ user: 'root', host: 'localhost' });
  });

  test.for<[string, string, string]>([
    [
      'a bad timestamp',
      '{ "timestamp": "yesterday", "class": "general", "event": "status" }',
      'timestamp must be',
    ],
    ['no class', '{ "timestamp": "2024-01-01 10:00:00", "event": "status" }', 'missing "class"'],
    [
      'a bad connection id',
      '{ "timestamp": "2024-01-01 10:00:00", "class": "general", "event": "status", "connection_id": -1 }',
      'connection_id must be a number',
    ],
    [
      'a bad status',
      '{ "timestamp": "2024-01-01 10:00:00", "class": "general", "event": "status", "general_data": { "status": "x" } }',
      'general_data.status must be a number',
    ],
    [
      'a data field of the wrong type',
      '{ "timestamp": "2024-01-01 10:00:00", "class": "general", "event": "status", "general_data": [] }',
      'general_data must be an object',
    ],
  ])('rejects %s', ([, line, reason]) => {
    expect(parseMysqlEnterpriseJson(`[\n${line},\n`).rejected).toEqual([
      { line: 2, text: line, reason: expect.stringContaining(reason) },
    ]);
  });

  test('an object still being written is incomplete; so is stray text at the end', () => {
    const open = '{ "timestamp": "2024-01-01 10:00:00", "class": "general",\n  "event": "sta';
    expect(parseMysqlEnterpriseJson(`[\n${open}`).rejected).toEqual([
      { line: 2, text: open, reason: INCOMPLETE_RECORD },
    ]);
    expect(parseMysqlEnterpriseJson('[\n]\nnul').rejected).toEqual([
      { line: 3, text: 'nul', reason: INCOMPLETE_LINE },
    ]);
  });

  test('braces and quotes inside strings do not confuse the framing', () => {
    const body =
      '"class": "general", "event": "status", "general_data": { "command": "Query", "query": "SELECT \'}{\\"\', \'\\\\\'", "status": 0 }';
    expect(parseMysqlEnterpriseJson(record(body)).events[0]).toMatchObject({
      queryText: "SELECT '}{\"', '\\'",
    });
  });
});
