import type { WorkloadName } from '../workload/workload.ts';

/** How long the per-event measurement runs: off/on pairs, the tinybench time per operation and arm, log samples. */
export interface PerEventPlan {
  pairs: number;
  /** tinybench's `time` for one operation in one arm: hundreds of statements (tens of logins), and short, so both
   * arms of a pair sit inside one of this VM's speed regimes. */
  segmentMs: number;
  /** Operations of each kind run with the plugin on to count the log records and bytes they write. */
  logOps: number;
}

/** Smoke fits CI's budget (5 kinds × 30 pairs × 2 × 100 ms: about 40 s per plugin); the others buy narrower intervals. */
export const perEventPlans: Record<WorkloadName, PerEventPlan> = {
  // The project's own test run checks that the figures come out and the log grows, not their width: a quarter of
  // smoke's pairs (15 until 2026-12-06: 20 s a plugin).
  quick: { pairs: 8, segmentMs: 100, logOps: 100 },
  smoke: { pairs: 30, segmentMs: 100, logOps: 200 },
  standard: { pairs: 60, segmentMs: 150, logOps: 500 },
  seed: { pairs: 60, segmentMs: 150, logOps: 500 },
};
