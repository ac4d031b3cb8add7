import type { WorkloadName } from '../workload/workload.ts';

/** How long the per-event measurement runs: off/on pairs, the tinybench time per operation and arm, log samples. */
export interface PerEventPlan {
  pairs: number;
  /** tinybench's `time` for each operation in each arm: long enough for hundreds of statements, short enough that
   * a pair sits inside one of this VM's speed regimes. */
  segmentMs: number;
  /** Operations of each kind run with the plugin on to count the log records and bytes they write. */
  logOps: number;
}

/** Smoke fits CI's budget (about a minute per plugin on 2 cores); the others buy narrower intervals. */
export const perEventPlans: Record<WorkloadName, PerEventPlan> = {
  smoke: { pairs: 10, segmentMs: 250, logOps: 200 },
  standard: { pairs: 24, segmentMs: 400, logOps: 500 },
  seed: { pairs: 24, segmentMs: 400, logOps: 500 },
};
