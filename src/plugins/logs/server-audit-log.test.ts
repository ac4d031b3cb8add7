import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE } from './framing.ts';
import { parseServerAuditLog } from './server-audit-log.ts';

// Recorded from MariaDB 10.11.19 (Debian 12) with server_audit 1.4.14 on a throwaway server; see fixtures/logs/SOURCES.md.
const recorded = readFileSync(
  new URL('../../../fixtures/logs/server-audit-10.11.log', import.meta.url),
  'utf8',
);
// Lines quoted in the research notes (blog 2023, MariaDB docs 12.0.1 log-format page, the seed report).
const documented = readFileSync(
  new URL('../../../fixtures/logs/server-audit-documented.log', import.meta.url),
  'utf8',
);

const lineOf = (text: string, n: number): string => `${text.split('\n')[n - 1]}\n`;
const only = (text: string): AuditEvent => {
  const { events, rejected } = parseServerAuditLog(text);
  expect(rejected).toEqual([]);
  expect(events).toHaveLength(1);
  return events[0] as AuditEvent;
};

const root = { time: '2026-11-30T00:43:42', user: 'root', host: 'localhost', connectionId: 4 };

describe('recorded MariaDB 10.11 server_audit log', () => {
  test('every line parses', () => {
    const { events, rejected } = parseServerAuditLog(recorded);
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(recorded.split('\n').length - 1);
  });

  test.for<[number, Partial<AuditEvent>]>([
    [
      1,
      {
        ...root,
        queryId: 7,
        operation: 'QUERY',
        database: '',
        queryText: 'SET GLOBAL server_audit_logging=ON',
      },
    ],
    [
      4,
      {
        ...root,
        queryId: 11,
        operation: 'CREATE',
        database: 'shop',
        object: 't1',
        queryText: '',
        errorCode: null,
      },
    ],
    [
      10,
      {
        queryText:
          "INSERT INTO t1 VALUES (1, 'plain'), (2, 'a,b,c'), (3, 'it''s'), (4, 'back\\\\slash'), (5, 'say \"hi\"')",
        errorCode: 0,
      },
    ],
    [12, { queryText: "SELECT id, note FROM t1 WHERE note LIKE '%,%'" }],
    [14, { queryText: 'SELECT id,\n       note\n  FROM t1\n WHERE id > 1' }],
    [15, { queryText: "SELECT 'tab\there', 'héllo wörld'" }],
    [17, { queryText: "UPDATE t1 SET note = 'x\\'y' WHERE id = 1" }],
    [21, { operation: 'RENAME', database: 'shop', object: 't1|shop.renamed_t1', errorCode: null }],
    [26, { operation: 'QUERY', queryText: 'SELEC 1', errorCode: 1064 }],
    [27, { operation: 'QUERY', queryText: 'SELECT * FROM no_such_table', errorCode: 1146 }],
    [35, { queryText: 'CREATE USER u IDENTIFIED BY *****', errorCode: 0 }],
    [43, { queryText: 'CREATE USER u IDENTIFIED BY *****', errorCode: 1396 }],
    [48, { queryText: 'SET PASSWORD FOR u = PASSWORD(*****)' }],
    [58, { queryText: 'SET GLOBAL server_audit_', errorCode: 0 }],
    [59, { queryText: "SELECT 'abc\\'def', ", errorCode: 0 }],
    [64, { operation: 'DROP', object: 'renamed_t1', errorCode: null }],
    [
      67,
      {
        user: 'u',
        host: 'localhost',
        connectionId: 5,
        queryId: 0,
        operation: 'FAILED_CONNECT',
        errorCode: 1045,
      },
    ],
    [73, { user: 'root', connectionId: 8, queryId: 0, operation: 'CONNECT', database: '', errorCode: 0 }],
    [100, { user: 'u', connectionId: 11, operation: 'CONNECT', database: 'shop' }],
    [105, { user: 'u', queryText: 'SELECT id,\n  doc\nFROM items\nWHERE nope = 1', errorCode: 1054 }],
    [106, { queryText: 'SELECT doc FROM items WHERE doc = \'{"a" : 1}\' AND', errorCode: 1064 }],
    [107, { queryText: "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom : failure'", errorCode: 1644 }],
  ])('line %i', ([n, expected]) => {
    expect(only(lineOf(recorded, n))).toMatchObject(expected);
  });
});

describe('documented lines', () => {
  test.for<[number, Partial<AuditEvent>]>([
    [
      1,
      {
        time: '2023-02-21T17:47:57',
        queryText: 'SET GLOBAL server_audit_file_rotate_now = ON',
        errorCode: 0,
      },
    ],
    [2, { queryText: 'mysql-server_auditing', errorCode: 1064 }],
    [3, { operation: 'DISCONNECT', queryId: 0, errorCode: 0 }],
    // 12.0.1+: host:port and the TLS version in the object field.
    [
      4,
      { host: '192.168.1.24', connectionId: 7, operation: 'CONNECT', database: 'mysql', object: 'TLSv1.3' },
    ],
    [5, { host: '127.0.0.1', connectionId: 375, queryId: 8_330_400, database: 'sysbench_test' }],
  ])('line %i', ([n, expected]) => {
    expect(only(lineOf(documented, n))).toMatchObject(expected);
  });
});

describe('variants and damage', () => {
  test.for<[string, string, Partial<AuditEvent>]>([
    [
      'Enterprise unknown port',
      '20250101 10:00:00,h,root,localhost:unavailable,5,0,CONNECT,,,0',
      { host: 'localhost' },
    ],
    [
      'IPv6 with port kept whole',
      '20250101 10:00:00,h,root,::1:54312,5,0,CONNECT,,,0',
      { host: '::1:54312' },
    ],
    ['AWS connection type', '20250101 10:00:00,h,app,10.0.0.9,12,0,CONNECT,db1,,0,TCP/IP', { errorCode: 0 }],
    [
      'custom timestamp format',
      "2025-01-01 10:00:00.123,h,root,localhost,5,9,QUERY,,'select 1',0",
      { time: '2025-01-01 10:00:00.123' },
    ],
    [
      'PROXY_CONNECT object',
      '20250101 10:00:00,h,plug,localhost,6,0,PROXY_CONNECT,test,`plug_dest`@`%`,0',
      { object: '`plug_dest`@`%`' },
    ],
  ])('%s', ([, line, expected]) => {
    expect(only(`${line}\n`)).toMatchObject(expected);
  });

  test.for<[string, string, string]>([
    ['too few fields', '20250101 10:00:00,h,root,localhost,5', 'not a server_audit record'],
    ['non-numeric id', '20250101 10:00:00,h,root,localhost,x,0,CONNECT,,,0', 'not a server_audit record'],
    [
      'unterminated query',
      "20250101 10:00:00,h,root,localhost,5,9,QUERY,,'select 1,0",
      'unterminated quoted query text',
    ],
    [
      'junk after query',
      "20250101 10:00:00,h,root,localhost,5,9,QUERY,,'select 1'x,0",
      'expected ",<retcode>"',
    ],
    [
      'non-numeric retcode',
      '20250101 10:00:00,h,root,localhost,5,9,READ,db,t1,oops',
      'expected ",<retcode>"',
    ],
  ])('rejects %s', ([, line, reason]) => {
    const { events, rejected } = parseServerAuditLog(`${recorded.split('\n')[0]}\n${line}\n`);
    expect(events).toHaveLength(1);
    expect(rejected).toEqual([{ line: 2, text: line, reason: expect.stringContaining(reason) }]);
  });

  test('a last line still being written is rejected as incomplete, with its line number', () => {
    const partial = "20261130 00:43:42,vm,root,localhost,4,8,QUERY,,'CREATE DATA";
    const { events, rejected } = parseServerAuditLog(lineOf(recorded, 1) + partial);
    expect(events).toHaveLength(1);
    expect(rejected).toEqual([{ line: 2, text: partial, reason: INCOMPLETE_LINE }]);
  });

  test('an empty line is reported, not skipped', () => {
    expect(parseServerAuditLog(`${lineOf(recorded, 1)}\n${lineOf(recorded, 2)}`).rejected).toEqual([
      { line: 2, text: '', reason: 'empty line' },
    ]);
  });

  test('empty text has no events and nothing to reject', () => {
    expect(parseServerAuditLog('')).toEqual({ events: [], rejected: [] });
  });
});
