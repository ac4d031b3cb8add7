import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import { INCOMPLETE_LINE } from './framing.ts';
import { parseGeneralLog } from './general-log.ts';

// Recorded from MariaDB 10.11.19 on a throwaway server: two reopenings and a restart; see fixtures/logs/SOURCES.md.
const recorded = readFileSync(
  new URL('../../../fixtures/logs/general-log-10.11.log', import.meta.url),
  'utf8',
);

const root = { user: 'root', host: 'localhost', errorCode: null, queryId: null };

describe('recorded MariaDB 10.11 general log', () => {
  test('every record parses and the three headers are no events', () => {
    const { events, rejected } = parseGeneralLog(recorded);
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(41);
  });

  test.for<[number, Partial<AuditEvent>]>([
    // The first record after the header: the Quit of the session that switched the log on, account unknown.
    [0, { time: '2026-11-30T01:08:41', user: '', connectionId: 11, operation: 'DISCONNECT' }],
    [1, { ...root, connectionId: 12, operation: 'CONNECT', database: '', queryText: '' }],
    [3, { ...root, operation: 'INIT_DB', database: 'shop', queryText: '' }],
    // Written raw: quotes, backslashes, a tab and UTF-8 as the client sent them.
    [
      4,
      {
        ...root,
        database: 'shop',
        queryText: `INSERT INTO items VALUES (1, 'it''s a "quote", a back\\\\slash and a\ttab'), (2, 'ünïcødé ✓')`,
      },
    ],
    [5, { queryText: 'SELECT id,\n  doc\nFROM items\nWHERE id = 1' }],
    // A failing statement is logged like any other, before it runs: no error code anywhere.
    [6, { operation: 'QUERY', queryText: 'SELEC 1', errorCode: null }],
    // The password is in plain text: MariaDB does not rewrite statements for the general log.
    [8, { queryText: "CREATE USER u IDENTIFIED BY 'secret'" }],
    [15, { user: 'u', host: 'localhost', connectionId: 13, operation: 'FAILED_CONNECT' }],
    [19, { user: 'u', database: 'shop', connectionId: 15, queryText: 'SELECT COUNT(*) FROM items' }],
    [24, { time: '2026-11-30T01:08:47', queryText: 'SET GLOBAL general_log=OFF' }],
    // After the reopening header the line has no time of its own: it keeps the last one written.
    [25, { time: '2026-11-30T01:08:47', ...root, queryText: "SELECT 'after reopening'" }],
    [28, { operation: 'PREPARE', database: 'shop', queryText: 'SELECT doc FROM items WHERE id = ?' }],
    [31, { operation: 'EXECUTE', queryText: "UPDATE items SET doc = 'multi\\nline' WHERE id = 1" }],
    [32, { operation: 'CLOSE_STMT', queryText: '' }],
    [34, { user: 'u', operation: 'DISCONNECT' }],
    // After the restart ids start again and the first line has a time.
    [39, { time: '2026-11-30T01:08:56', ...root, connectionId: 3, queryText: "SELECT 'after restart'" }],
  ])('event %i', ([i, expected]) => {
    expect(parseGeneralLog(recorded).events[i]).toMatchObject(expected);
  });

  test('known ambiguity: a continuation line shaped like a record becomes one', () => {
    const { events } = parseGeneralLog(recorded);
    expect(events[11]?.queryText).toBe("SELECT '\ttab at start of a continuation");
    expect(events[12]).toMatchObject({
      connectionId: 99,
      user: '',
      queryText: expect.stringMatching(/^looks/),
    });
  });
});

// Synthetic, in the layout of File_query_log::write_general() in MySQL 8.0's sql/log.cc (`%5u ` ids, ISO times);
// no MySQL general log was recorded for this project yet.
const mysql8 = [
  '/usr/sbin/mysqld, Version: 8.0.36 (MySQL Community Server - GPL). started with:',
  'Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock',
  'Time                 Id Command    Argument',
  '2026-11-30T00:10:01.120034Z\t    8 Connect\troot@localhost on shop using Socket',
  "2026-11-30T00:10:01.120410Z\t    8 Query\tCREATE USER 'u'@'%' IDENTIFIED BY <secret>",
  '2026-11-30T01:10:01.500000+01:00\t    8 Quit\t',
  '',
].join('\n');

test('MySQL 5.7+ layout: every line has an ISO time, kept as written', () => {
  const { events, rejected } = parseGeneralLog(mysql8);
  expect(rejected).toEqual([]);
  expect(events.map((e) => [e.time, e.operation, e.database])).toEqual([
    ['2026-11-30T00:10:01.120034Z', 'CONNECT', 'shop'],
    ['2026-11-30T00:10:01.120410Z', 'QUERY', 'shop'],
    ['2026-11-30T01:10:01.500000+01:00', 'DISCONNECT', 'shop'],
  ]);
});

describe('damage and live tails', () => {
  const lines = recorded.split('\n');

  test('text before any record is rejected with its line number', () => {
    const { rejected, events } = parseGeneralLog(`stray text\n${recorded}`);
    expect(rejected).toEqual([
      { line: 1, text: 'stray text', reason: 'no record to continue and no record start' },
    ]);
    expect(events).toHaveLength(41);
  });

  test('an unfinished last line rejects its whole record as incomplete, so a tail can retry it', () => {
    const cut = `${lines.slice(0, 10).join('\n')}\nFROM it`;
    const { events, rejected } = parseGeneralLog(cut);
    expect(events.at(-1)?.queryText).toMatch(/^INSERT INTO items/);
    expect(rejected).toEqual([
      { line: 9, text: '\t\t    12 Query\tSELECT id,\n  doc\nFROM it', reason: INCOMPLETE_LINE },
    ]);
  });

  test('a header alone is no event and no rejection', () => {
    expect(parseGeneralLog(`${lines.slice(0, 3).join('\n')}\n`)).toEqual({ events: [], rejected: [] });
  });
});
