import { describe, expect, test } from 'vitest';
import { judgeComparable, wallClockEventsPerTx } from './comparable.ts';
import type { CountedArm } from './counted-stats.ts';

/** Measured arms in ABBA order with these on-arm event totals (150 transactions each, off arms log nothing). */
const arms = (on: [number, number, number]): CountedArm[] => {
  const arm = (kind: 'off' | 'on', events: number): CountedArm => ({
    kind,
    transactions: 150,
    totals: { instructions: 1, writeCalls: 0, writeBytes: 0, logBytes: 0, events },
  });
  return [arm('off', 0), arm('on', on[0]), arm('on', on[1]), arm('off', 0), arm('off', 0), arm('on', on[2])];
};

// Recorded by the bench of 2026-12-04 (results.json of the counted runs): the wall clock's events per plugin-on
// transaction by class, and each counted on arm's events.
const serverAudit = { perTxnByClass: { QUERY: 19.988621952520358, TABLE: 17.98888827691602 } };
const generalLog = { perTxnByClass: { EXECUTE: 19.95132075705804, QUERY: 0.0004825186924294884 } };
const sqlErrorLog = { perTxnByClass: { ERROR: 0.009339629800423787 } };

describe('counted arms against the wall clock’s audit events', () => {
  test('the wall clock’s figure sums the classes; none without an event count', () => {
    expect(wallClockEventsPerTx(serverAudit)).toBeCloseTo(37.9775, 4);
    expect(wallClockEventsPerTx(undefined)).toBeNull();
  });

  test.for([
    // server_audit: 38.03 against 37.98 (+0.14%).
    { name: 'server_audit', wall: serverAudit, on: [5705, 5704, 5704] },
    // The general log: 20.53 against 19.95 (+2.9%: each arm's own connection, prepares and closes).
    { name: 'the general log', wall: generalLog, on: [3080, 3080, 3080] },
    // SQL_ERROR_LOG with 5 failed logins a second: one per arm (1/150) against 1.4 per 150 in the wall clock.
    { name: 'SQL_ERROR_LOG', wall: sqlErrorLog, on: [1, 1, 1] },
  ] as const)('$name as recorded is comparable', ({ wall, on }) => {
    const judged = judgeComparable(arms([...on] as [number, number, number]), wallClockEventsPerTx(wall));
    expect(judged.refused).toBeNull();
    expect(judged.wallClockEventsPerTx).toBe(wallClockEventsPerTx(wall));
  });

  test('an arm that logged only the QUERY class of server_audit’s mix is refused, naming both figures', () => {
    // The recorded arms' 5,704 events less the TABLE class's 18 a transaction (2,700): what a filter that dropped
    // TABLE events on the counted server would give.
    const judged = judgeComparable(arms([5705, 5704, 3004]), wallClockEventsPerTx(serverAudit));
    expect(judged.refused).toBe(
      "not comparable: counted arm 6 (on) logged 20.03 audit events per transaction, the wall clock 37.98 (tolerance ±1.90: 5% or 8 events an arm); its counted figures are not reported as the plugin's cost",
    );
  });

  test('a plugin that logged nothing on the counted server is refused', () => {
    const judged = judgeComparable(arms([0, 0, 0]), wallClockEventsPerTx(generalLog));
    expect(judged.refused).toMatch(
      /^not comparable: counted arm 2 \(on\) logged 0\.00 audit events .* 19\.95 /,
    );
  });

  test('a few events an arm of difference pass where the wall clock logs little; more do not', () => {
    const wall = 0.0093;
    expect(judgeComparable(arms([9, 9, 9]), wall).refused).toBeNull();
    expect(judgeComparable(arms([1, 1, 10]), wall).refused).toMatch(
      /counted arm 6 \(on\) logged 0\.067 .* 0\.009/,
    );
  });

  test('without the wall clock’s event count there is nothing to compare', () => {
    expect(judgeComparable(arms([0, 0, 0]), null)).toEqual({ wallClockEventsPerTx: null, refused: null });
  });
});
