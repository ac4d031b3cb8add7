import type { CountedArm } from './counted-stats.ts';

/**
 * How far a counted on arm's audit events per transaction may lie from the wall clock's before the arm is refused:
 * 5% of the wall clock's figure or 8 events in the arm, whichever is more. Arms legitimately differ a little: each
 * logs its two marker statements and its own sysbench connections' logins, prepares, closes and logouts, which the
 * wall clock spreads over thousands of transactions (the general log's arms logged 2.9% more), and added traffic is
 * rounded to whole operations per arm (SQL_ERROR_LOG's one failed login per arm against 1.4 in the wall clock's mix).
 */
export const EVENTS_TOLERANCE = { pct: 5, eventsPerArm: 8 } as const;

/** Whether the counted arms logged what the wall clock logged, and if not, the one line that says why. */
export interface Comparability {
  /** The wall clock's audit events per plugin-on transaction, all classes; null when it counted none. */
  wallClockEventsPerTx: number | null;
  /** Null: comparable, or nothing to compare. Else why the counted figures are not the plugin's cost. */
  refused: string | null;
}

/** The wall clock's events per plugin-on transaction, summed over the log's classes; null when it counted none. */
export function wallClockEventsPerTx(
  auditEvents: { perTxnByClass: Record<string, number> } | undefined | null,
): number | null {
  if (!auditEvents) return null;
  return Object.values(auditEvents.perTxnByClass).reduce((sum, n) => sum + n, 0);
}

/**
 * Judges the measured arms (warm-up left out) against the wall clock: an on arm whose audit events per transaction
 * differ from the wall clock's beyond `EVENTS_TOLERANCE` means the counted server logged another mix of events (a
 * filter that matched differently, a plugin that did not hook under valgrind), so its figures are refused as not
 * comparable. Only on arms are compared: the wall clock counts events in plugin-on time only.
 *
 * Nothing is compared when the wall clock has no event count: a plugin whose log auditbench does not parse, a log
 * it cannot read, or no wall-clock run before the count (a gate comparison). Then `refused` stays null and
 * `wallClockEventsPerTx` says why: it is null.
 */
export function judgeComparable(
  arms: readonly CountedArm[],
  wallClockPerTx: number | null,
  tolerance: { pct: number; eventsPerArm: number } = EVENTS_TOLERANCE,
): Comparability {
  if (wallClockPerTx === null || !Number.isFinite(wallClockPerTx))
    return { wallClockEventsPerTx: null, refused: null };
  let worst: { index: number; perTx: number; tol: number; excess: number } | null = null;
  for (const [index, arm] of arms.entries()) {
    if (arm.kind !== 'on' || arm.transactions <= 0) continue;
    const perTx = arm.totals.events / arm.transactions;
    const tol = Math.max((tolerance.pct / 100) * wallClockPerTx, tolerance.eventsPerArm / arm.transactions);
    const excess = Math.abs(perTx - wallClockPerTx) - tol;
    if (excess > 0 && (worst === null || excess > worst.excess)) worst = { index, perTx, tol, excess };
  }
  if (worst === null) return { wallClockEventsPerTx: wallClockPerTx, refused: null };
  const digits = wallClockPerTx < 1 ? 3 : 2;
  return {
    wallClockEventsPerTx: wallClockPerTx,
    refused: `not comparable: counted arm ${worst.index + 1} (on) logged ${worst.perTx.toFixed(digits)} audit events per transaction, the wall clock ${wallClockPerTx.toFixed(digits)} (tolerance ±${worst.tol.toFixed(digits)}: ${tolerance.pct}% or ${tolerance.eventsPerArm} events an arm); its counted figures are not reported as the plugin's cost`,
  };
}
