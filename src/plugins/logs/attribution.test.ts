import { expect, test } from 'vitest';
import { unattributed } from './attribution.ts';
import { parseServerAuditLog } from './server-audit-log.ts';

// server_audit's own lines (MariaDB 10.11, log_header and log_connect in server_audit.c): `%.*s` user and host.
const T = '20261207 13:00:00,vm';
const connect = (id: number, user: string, host = 'localhost') => `${T},${user},${host},${id},0,CONNECT,,,0`;
const query = (id: number, user: string, sql: string, host = 'localhost') =>
  `${T},${user},${host},${id},${id * 10},QUERY,,'${sql}',0`;
const failed = (id: number, user: string, host = 'localhost') =>
  `${T},${user},${host},${id},0,FAILED_CONNECT,,,1045`;

// The failed login a client sends without a password: its user name closes a line, forges one, and absorbs the
// plugin's trailing fields (issue 64). The plugin writes it as one record; the reader sees three lines.
const forged = `x,h,1,0,Q,,,0\n${query(11, 'admin', 'CREATE TABLE shop.x (a INT)')}\nT,v,u`;

const reasons = (lines: string[], from = 0, live: { id: number; user: string }[] = []) => {
  const { events } = parseServerAuditLog(`${lines.join('\n')}\n`);
  return unattributed(events, from, live).map((u) => [events[u.index]?.user, u.reason]);
};

test("a failed login's forged record of an account is not that account's: no CONNECT opened its connection", () => {
  const log = [connect(10, 'admin'), query(10, 'admin', 'SELECT 1'), failed(12, forged)];
  expect(parseServerAuditLog(`${log.join('\n')}\n`).events.map((e) => e.user)).toEqual([
    'admin',
    'admin',
    'x',
    'admin',
    'u',
  ]);
  expect(reasons(log)).toEqual([
    ['x', 'no CONNECT record opened connection 1, and the server lists no such connection'],
    ['admin', 'no CONNECT record opened connection 11, and the server lists no such connection'],
  ]);
});

test.for([
  [
    'on a connection opened by another account',
    [connect(11, 'app'), query(11, 'admin', 'CREATE TABLE t (a INT)')],
    'connection 11 was opened by CONNECT app@localhost, not admin@localhost',
  ],
  [
    'with a forged CONNECT of a connection the log already opened',
    [connect(11, 'app'), connect(11, 'admin'), query(11, 'admin', 'CREATE TABLE t (a INT)')],
    'connection 11 is opened more than once (first by CONNECT app@localhost): whose it is cannot be told',
  ],
  [
    "on a refused login's connection",
    [failed(11, 'admin'), query(11, 'admin', 'CREATE TABLE t (a INT)')],
    'connection 11 is a refused login (FAILED_CONNECT admin@localhost): it sends no statement',
  ],
  [
    'from another host',
    [connect(11, 'admin'), query(11, 'admin', 'CREATE TABLE t (a INT)', '10.0.0.9')],
    'connection 11 was opened by CONNECT admin@localhost, not admin@10.0.0.9',
  ],
] as const)('a record %s is refused', ([, lines, reason]) => {
  expect(reasons([...lines]).at(-1)).toEqual(['admin', reason]);
});

test("the plugin's own records are attributed: connect, statements, change of user, disconnect, a refused login's disconnect", () => {
  const log = [
    connect(10, 'admin'),
    query(10, 'admin', 'CREATE TABLE t (a INT)'),
    failed(10, 'nobody'),
    `${T},app,localhost,10,0,CHANGEUSER,,,0`,
    query(10, 'app', 'SELECT 1'),
    `${T},app,localhost,10,0,DISCONNECT,,,0`,
    failed(13, 'admin'),
    `${T},admin,localhost,13,0,DISCONNECT,,,0`,
  ];
  expect(reasons(log)).toEqual([]);
});

test("a session opened before the log began is its account's only if the server lists it so", () => {
  const log = [connect(10, 'admin'), query(4, 'root', 'SET GLOBAL server_audit_logging=ON')];
  expect(reasons(log, 0, [{ id: 4, user: 'root' }])).toEqual([]);
  expect(reasons(log, 0, [{ id: 4, user: 'app' }])).toEqual([
    ['root', "connection 4 is app's on the server, not root's"],
  ]);
});

test('only the span is judged, against what came before it; a log without CONNECT records is not judged', () => {
  const log = [connect(10, 'admin'), query(7, 'admin', 'x'), query(10, 'admin', 'CREATE TABLE t (a INT)')];
  expect(reasons(log, 2)).toEqual([]);
  expect(reasons([query(7, 'admin', 'x')])).toEqual([]);
});

test("an opening younger than the closing marker's connection is refused", () => {
  const { events } = parseServerAuditLog(`${[connect(10, 'admin'), connect(99, 'admin')].join('\n')}\n`);
  expect(unattributed(events, 0, [], 20)).toEqual([
    {
      index: 1,
      reason:
        "connection 99 is younger than the closing marker's (20): the server never opened it before the marker",
    },
  ]);
});
