import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE } from './framing.ts';
import { csvRow, parseGeneralLogTable } from './general-log-table.ts';

// Recorded from MariaDB 10.11.19 with log_output=TABLE on a throwaway server; see fixtures/logs/SOURCES.md.
const recorded = readFileSync(
  new URL('../../../fixtures/logs/general-log-table-10.11.CSV', import.meta.url),
  'utf8',
);

const root = { user: 'root', host: 'localhost', connectionId: 4, errorCode: null, queryId: null };
const u = { user: 'u', host: '127.0.0.1', connectionId: 7 };

describe('recorded MariaDB 10.11 general_log.CSV', () => {
  test('every row parses, one event a row', () => {
    const { events, rejected } = parseGeneralLogTable(recorded);
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(20);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [
      0,
      {
        ...root,
        time: '2026-12-07T17:11:47.154212',
        operation: 'QUERY',
        queryText: 'CREATE DATABASE shop',
      },
    ],
    // Unescaped as the CSV engine reads its rows back: \" and \\ are the character, a tab is written raw.
    [2, { ...root, queryText: `SELECT 'it''s', "dq\\"x", 'back\\\\slash', 'tab\there', 'ünïcode €'` }],
    [3, { queryText: 'SELECT 1,\n  2\nFROM dual' }],
    // Logged before it runs, like the file: no error code.
    [4, { operation: 'QUERY', queryText: 'SELEC 1', errorCode: null }],
    [6, { queryText: "CREATE USER u IDENTIFIED BY 'secret'" }],
    // A line of the statement that looks like a file record stays inside it: every row is one line.
    [8, { queryText: "SELECT 'a\n\t\t    99 Query\tfake'" }],
    [9, { queryText: "SELECT 'cr\rhere', 'nul\\0x'" }],
    [10, { operation: 'CONNECT', user: 'u', host: '127.0.0.1', connectionId: 5 }],
    [11, { operation: 'FAILED_CONNECT', user: 'u', host: '127.0.0.1', connectionId: 5 }],
    [13, { operation: 'FAILED_CONNECT', user: 'nobody', host: '127.0.0.1' }],
    [14, { ...u, operation: 'CONNECT', database: 'shop' }],
    // The account comes with every row (user_host), the database from the connection's Connect.
    [15, { ...u, operation: 'PREPARE', database: 'shop', queryText: 'SELECT ? AS v' }],
    [16, { ...u, operation: 'EXECUTE', database: 'shop', queryText: 'SELECT 42 AS v' }],
    [17, { ...u, operation: 'CHANGE_USER', database: 'shop' }],
    [18, { ...u, operation: 'DISCONNECT', queryText: '' }],
  ])('row %i', ([index, wanted]) => {
    expect(parseGeneralLogTable(recorded).events[index]).toMatchObject(wanted);
  });
});

describe('rows that are not the table', () => {
  test('a row still being written is rejected as incomplete, for a reader to retry', () => {
    const text = `${recorded}"2026-12-07 17:11:48.000001","root[root] @ localhost []",4,1,"Query","SELE`;
    const { rejected } = parseGeneralLogTable(text);
    expect(rejected).toEqual([expect.objectContaining({ line: 21, reason: INCOMPLETE_LINE })]);
  });

  test.for([
    ['"2026-12-07 17:11:47.1","root[root] @ localhost []",4,1,"Query"', '5 columns, the table has 6'],
    ['"yesterday","root[root] @ localhost []",4,1,"Query","x"', 'event_time "yesterday" is not a timestamp'],
    ['"2026-12-07 17:11:47.1","root",4,1,"Query","x"', 'user_host "root" is not user[user] @ host [ip]'],
    ['"2026-12-07 17:11:47.1","root[root] @ localhost []",x,1,"Query","x"', 'thread_id "x" is not a number'],
    ['"2026-12-07 17:11:47.1","a"b,4', 'expected "," at column 28, got "b"'],
  ])('%s → %s', ([row, reason]) => {
    expect(parseGeneralLogTable(`${row}\n`).rejected).toEqual([{ line: 1, text: row, reason }]);
  });

  test('escapes other than the engine’s four are kept as written, as the engine reads them', () => {
    expect(csvRow('"a\\tb","\\"q\\"",7,""')).toEqual(['a\\tb', '"q"', '7', '']);
  });
});
