import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../audit-event.ts';
import type { PluginExpectations } from '../profile.ts';
import {
  cutOnly,
  keepsStartOf,
  type LifecycleContext,
  recordsInOrder,
  unreadableReason,
  writtenLength,
} from './context.ts';

const withExpected = (expected: Partial<PluginExpectations>) => ({ expected }) as unknown as LifecycleContext;
// A marker as lifecycleContext makes it: 'ab' and the time in base 36 (8 characters until 2059).
const marker = 'abmi8x2k1q';

describe('where a statement limit leaves a check its marker', () => {
  test('a quote or backslash counts two, as the plugin escapes it', () => {
    expect(writtenLength(`SELECT 'a\\b'`)).toBe(15);
  });

  test.for([
    // SELECT \'abmi8x2k1q-ok: 22 characters as written.
    [22, null],
    [21, 'records keep 21 characters of a statement, and the check needs 22'],
    [0, 'records keep 0 characters'],
  ] as const)('limit %d', ([limit, reason]) => {
    const statement = `SELECT '${marker}-ok' AS auditbench_marker`;
    const got = unreadableReason(withExpected({ statementTextLimit: limit }), statement, `${marker}-ok`);
    if (reason === null) expect(got).toBeNull();
    else expect(got).toContain(reason);
  });

  test('no limit, no cut; without a needle the whole statement must fit', () => {
    expect(unreadableReason(withExpected({}), 'SELECT 1')).toBeNull();
    expect(unreadableReason(withExpected({ statementTextLimit: 8 }), 'SELECT 1')).toBeNull();
    expect(unreadableReason(withExpected({ statementTextLimit: 7 }), 'SELECT 1')).not.toBeNull();
  });

  test('a sampled log leaves no record to look for, whatever the limit', () => {
    const ctx = withExpected({ recordsIncomplete: 'one error in 3', statementTextLimit: 1024 });
    expect(unreadableReason(ctx, 'SELECT 1')).toBe('one error in 3');
  });

  test('an unreadable log wins over any limit', () => {
    const ctx = withExpected({ logUnreadable: 'logs to syslog', statementTextLimit: 1024 });
    expect(unreadableReason(ctx, 'SELECT 1')).toBe('logs to syslog');
  });
});

describe('past the cut, a record is judged by the start it keeps (issue 40)', () => {
  const statement = `SELECT '${marker}-ok' AS auditbench_marker`;

  test.for([
    ['S', 1, true],
    ['SELECT', 6, true],
    ['SELECT', 5, false],
    ['', 1, false],
    ['X', 1, false],
    [statement, 1, false],
  ] as const)('%j at limit %d: %s', ([kept, limit, ok]) => {
    expect(keepsStartOf(kept, statement, limit)).toBe(ok);
  });

  test('only a cut is worked around: an unreadable or sampled log stays not applicable', () => {
    expect(cutOnly(withExpected({ statementTextLimit: 1 }))).toBe(1);
    expect(cutOnly(withExpected({}))).toBeNull();
    expect(cutOnly(withExpected({ statementTextLimit: 1, logUnreadable: 'syslog' }))).toBeNull();
    expect(cutOnly(withExpected({ statementTextLimit: 1, recordsIncomplete: 'one in 3' }))).toBeNull();
  });

  test("records are matched in the order sent: 'SELEC …' and 'SELECT …' both keep 'S' at one character", () => {
    const record = (queryText: string, errorCode: number) => ({ queryText, errorCode }) as AuditEvent;
    const [first, second] = recordsInOrder(
      [record('S', 1064), record('S', 1146)],
      ["SELEC 'a'", "SELECT 'b'"],
      1,
    );
    expect([first?.errorCode, second?.errorCode]).toEqual([1064, 1146]);
    expect(recordsInOrder([record('S', 1064)], ["SELEC 'a'", "SELECT 'b'"], 1)[1]).toBeUndefined();
  });
});
