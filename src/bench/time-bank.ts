/**
 * Seconds that earlier gates on the same server did not need, passed on to the gates after them (issue 25): the
 * bank is a number of whole seconds, 0 before the first gate.
 *
 * A gate with a precision target stops as soon as it is decisive and precise enough; on a quiet minute that is 10
 * pairs (about 52 s of standard's 75), on a noisy one the budget runs out first, so in one bench some gates stop
 * early while another runs out of budget (docs/measurements/2026-12-03-quiet-morning.md). The bank lets that gate use
 * what the others left, so `auditbench bench` as a whole measures no longer than before: every gate's base budget
 * is still the workload's, and only unspent seconds move. Workloads that stop at a verdict (no target) keep their
 * budget as it is: extra seconds there would only lengthen an inconclusive gate.
 */

import type { MeasurePlan } from '../workload/workload.ts';

/**
 * A gate may spend at most this many times its workload's budget, whatever the bank holds: one noisy run should not
 * take every second the others left.
 */
export const MAX_BUDGET_FACTOR = 2;

/** Whether the workload's gates take part: only those that keep measuring for precision. */
const banks = (workload: Pick<MeasurePlan, 'targetHalfWidthPct'>): boolean =>
  workload.targetHalfWidthPct != null;

/** The next gate's budget: the workload's, plus what the bank holds, at most MAX_BUDGET_FACTOR times the workload's. */
export function budgetFrom(
  bankedS: number,
  workload: Pick<MeasurePlan, 'budgetS' | 'targetHalfWidthPct'>,
): number {
  if (!banks(workload)) return workload.budgetS;
  return Math.min(workload.budgetS + bankedS, MAX_BUDGET_FACTOR * workload.budgetS);
}

/**
 * The bank after a gate that measured for `usedS` seconds (its wall time, warm-up included, as its budget counts).
 * It keeps what the gate left of its own budget and of the bank; a gate that ran over (its last pair ends past the
 * budget by a little) empties it rather than borrowing from later gates.
 */
export function afterGate(
  bankedS: number,
  workload: Pick<MeasurePlan, 'budgetS' | 'targetHalfWidthPct'>,
  usedS: number,
): number {
  if (!Number.isFinite(usedS) || usedS < 0) throw new Error(`usedS must be at least 0 seconds, got ${usedS}`);
  if (!banks(workload)) return bankedS;
  // Whole seconds: a budget is printed and compared in seconds, and a fraction buys no pair.
  return Math.max(0, Math.floor(bankedS + workload.budgetS - usedS));
}

/** The progress line for a gate whose budget the bank raised; null when it did not. */
export function bankLine(budgetS: number, workload: Pick<MeasurePlan, 'budgetS'>): string | null {
  const extra = budgetS - workload.budgetS;
  if (!(extra > 0)) return null;
  return `budget ${Math.round(budgetS)} s: the workload's ${workload.budgetS} s and ${Math.round(extra)} s the earlier gates on this server did not use`;
}
