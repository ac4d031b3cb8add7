import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE } from './framing.ts';
import { parseSqlErrlog } from './sql-errlog.ts';

// Recorded from MariaDB 10.11.19 with sql_errlog 1.1, default settings, then after a restart with
// --sql-error-log-with-db-and-thread-info=ON; see fixtures/logs/SOURCES.md.
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');
const plain = fixture('sql-errors-10.11.log');
const withDb = fixture('sql-errors-10.11-with-db.log');

const at = { time: '2026-11-30T00:43:42', user: 'root', host: 'localhost', connectionId: null, database: '' };

describe('recorded MariaDB 10.11 sql_errors.log', () => {
  test('every record parses; a multi-line statement is one record', () => {
    const { events, rejected } = parseSqlErrlog(plain);
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(13);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [0, { ...at, operation: 'ERROR', errorCode: 1064, queryText: 'SELEC 1' }],
    [1, { ...at, operation: 'ERROR', errorCode: 1146, queryText: 'SELECT * FROM no_such_table' }],
    // The plugin logs the statement as received: the password is NOT masked here, unlike server_audit.
    [2, { operation: 'ERROR', errorCode: 1396, queryText: "CREATE USER u IDENTIFIED BY 'secret'" }],
    [3, { operation: 'WARNING', errorCode: 1365, queryText: 'SELECT 1/0' }],
    [4, { operation: 'WARNING', errorCode: 1292, queryText: "SELECT CAST('x1' AS INT)" }],
    [
      5,
      {
        operation: 'ERROR',
        errorCode: 1062,
        queryText: "INSERT INTO renamed_t1 (id, note) VALUES (1, 'duplicate')",
      },
    ],
    // Failed login: no privilege user yet, the login name in brackets, the query "(null)".
    [6, { ...at, user: 'u', host: 'localhost', operation: 'ERROR', errorCode: 1045, queryText: '' }],
    [8, { user: 'nobody', errorCode: 1045 }],
    [9, { time: '2026-11-30T00:44:05', user: 'u', errorCode: 1142, queryText: 'SELECT * FROM mysql.user' }],
    [10, { errorCode: 1054, queryText: 'SELECT id,\n  doc\nFROM items\nWHERE nope = 1' }],
    // A syntax error quotes the statement in its message, here including " : ": split after "at line 1".
    [11, { errorCode: 1064, queryText: 'SELECT doc FROM items WHERE doc = \'{"a" : 1}\' AND' }],
    // Known ambiguity: a message containing " : " (a SIGNAL text) leaves its tail in queryText.
    [
      12,
      {
        errorCode: 1644,
        queryText: "failure : SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom : failure'",
      },
    ],
  ])('record %i', ([i, expected]) => {
    expect(parseSqlErrlog(plain).events[i]).toMatchObject(expected);
  });

  test('rejections carry the line the record starts on', () => {
    const damaged = plain.replace('ERROR 1054: Unknown column', 'ERROR 1054 Unknown column');
    const { rejected } = parseSqlErrlog(`stray text\n${damaged}`);
    expect(rejected).toEqual([
      { line: 1, text: 'stray text', reason: 'no record to continue and no timestamp' },
      {
        line: 12,
        text: expect.stringMatching(/^2026.*ERROR 1054 Unknown.*\n {2}doc\nFROM items\nWHERE nope = 1$/),
        reason: 'not a sql_errlog record',
      },
    ]);
  });
});

describe('recorded with sql_error_log_with_db_and_thread_info=ON', () => {
  test.for<[number, Partial<AuditEvent>]>([
    [0, { connectionId: 4, database: '', errorCode: 1146, queryText: 'SELECT * FROM shop.missing' }],
    [1, { connectionId: 4, database: 'shop', errorCode: 1146, queryText: 'SELECT * FROM missing' }],
    [
      3,
      { connectionId: 4, database: 'shop', operation: 'WARNING', errorCode: 1365, queryText: 'SELECT 1/0' },
    ],
    [4, { time: '2026-11-30T00:44:19', user: 'u', connectionId: 5, errorCode: 1045, queryText: '' }],
  ])('record %i', ([i, expected]) => {
    const { events, rejected } = parseSqlErrlog(withDb);
    expect(rejected).toEqual([]);
    expect(events[i]).toMatchObject(expected);
  });

  test('a backtick in the database name is undoubled', () => {
    const line = '2026-11-30 10:00:01 7 a[a] @ h [] `we``ird` ERROR 1146: gone : SELECT 1 \n';
    expect(parseSqlErrlog(line).events[0]).toMatchObject({ time: '2026-11-30T10:00:01', database: 'we`ird' });
  });
});

describe('unfinished records', () => {
  const first = `${plain.split('\n')[0]}\n`;

  test('a half-written new record is rejected alone', () => {
    const partial = '2026-11-30  0:43:42 root[root] @ localhost [] ERROR 11';
    const { events, rejected } = parseSqlErrlog(first + partial);
    expect(events).toHaveLength(1);
    expect(rejected).toEqual([{ line: 2, text: partial, reason: INCOMPLETE_LINE }]);
  });

  test('a half-written continuation line takes its whole record with it', () => {
    const start = '2026-11-30  0:43:42 root[root] @ localhost [] ERROR 1054: Unknown column : SELECT a,';
    const { events, rejected } = parseSqlErrlog(`${first}${start}\n  b FRO`);
    expect(events).toHaveLength(1);
    expect(rejected).toEqual([{ line: 2, text: `${start}\n  b FRO`, reason: INCOMPLETE_LINE }]);
  });
});
