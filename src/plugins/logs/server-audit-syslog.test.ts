import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { frameLines } from './framing.ts';
import { parseServerAuditSyslog, splitInfo } from './server-audit-syslog.ts';
import { facilityName, parseSyslogLine, syslogLines } from './syslog-framing.ts';

const recorded = readFileSync(
  new URL('../../../fixtures/logs/server-audit-syslog-10.11.log', import.meta.url),
  'utf8',
);

test('the receiver lines of a live syslog run: ident, facility and priority as the settings named them', () => {
  const lines = syslogLines(frameLines(recorded).records);
  expect(lines).toHaveLength(4);
  expect(new Set(lines.map((l) => `${l.ident} ${l.facility} ${l.priority}`))).toEqual(
    new Set(['payments LOG_LOCAL3 LOG_NOTICE']),
  );
  expect(lines.map((l) => splitInfo(l.message)?.info)).toEqual(['', '', 'inf o', 'inf o']);
});

test('server_audit records without their timestamp field, the receiver time in its place', () => {
  const { events, rejected } = parseServerAuditSyslog(recorded);
  expect(rejected).toEqual([]);
  expect(events.map((e) => e.queryText)).toEqual([
    'SET GLOBAL server_audit_logging=ON',
    "SELECT 'tab\there', 1 /* x,y */",
    "SET GLOBAL server_audit_syslog_info='inf o'",
    'SELECT 2',
  ]);
  expect(events[3]).toEqual({
    time: '2026-12-07T14:06:36',
    user: 'root',
    host: 'localhost',
    connectionId: 4,
    queryId: 12,
    operation: 'QUERY',
    database: '',
    object: '',
    queryText: 'SELECT 2',
    errorCode: 0,
  });
});

test.for([
  [1, 'LOG_USER'],
  [16, 'LOG_LOCAL0'],
  [23, 'LOG_LOCAL7'],
  [10, 'LOG_AUTHPRIV'],
] as const)('facility %i is %s', ([code, name]) => {
  expect(facilityName(code)).toBe(name);
});

test('a line without PRI is rejected; an ident with a pid keeps the ident alone', () => {
  expect(parseSyslogLine('2026-12-07T14:06:36+00:00 payments: x')).toMatch(/not a syslog line/);
  expect(parseSyslogLine('<14>2026-12-07T14:06:36+00:00 mysqld[42]: hi')).toMatchObject({
    ident: 'mysqld',
    facility: 'LOG_USER',
    priority: 'LOG_INFO',
    message: 'hi',
  });
});

test('a message with no record after its info is rejected, not dropped', () => {
  const { events, rejected } = parseServerAuditSyslog('<14>2026-12-07T14:06:36+00:00 x: just text\n');
  expect(events).toEqual([]);
  expect(rejected[0]?.reason).toMatch(/no server_audit record/);
});
