import type { Environment } from '../config/env.ts';
import { type LifecycleStep, lifecycleSteps } from '../plugins/lifecycle/index.ts';
import { type ConcurrencyPoint, OPEN_LOOP_PCT, openLoopPoint } from '../workload/threads.ts';
import type { RunIdentity } from './run-identity.ts';

/** One test of a run, in the order the suite declares them. */
export type PlannedTest =
  | { kind: 'check'; title: string; step: LifecycleStep }
  | { kind: 'calibration'; title: string }
  | { kind: 'point-calibration'; title: string; point: ConcurrencyPoint }
  | { kind: 'measurement'; title: string; point: ConcurrencyPoint }
  | { kind: 'open-loop'; title: string; point: ConcurrencyPoint }
  | { kind: 'rates'; title: string };

/** Whether the runs are counted under callgrind: on a local server, unless the channel is off. */
export const countedAfterRuns = (config: Pick<Environment, 'target' | 'counted'>): boolean =>
  config.target === 'local' && config.counted !== 'off';

/** The title of a run's count, among the counts after the runs. */
export const countedTitle = (runId: string): string =>
  `${runId}: counted cost per transaction under callgrind, beside the wall clock`;

/**
 * A run's tests: its lifecycle checks, the A/A that applies, each point (its own A/A when not the workload's, then its
 * measurement), the open loop, the machine's rates for its count on a local server, then the checks after the
 * measurement. The count comes after the last run (`countedTitle`).
 */
export function plannedTests(
  id: RunIdentity,
  config: Pick<Environment, 'target' | 'counted'>,
): PlannedTest[] {
  const { run, workload, points } = id;
  const limit = `under the ${workload.name} workload is within ${run.maxOverheadPct}%`;
  const checks = (steps: LifecycleStep[]) =>
    steps.map((step) => ({ kind: 'check' as const, title: step.title, step }));
  const tests: PlannedTest[] = [
    ...checks(lifecycleSteps.beforeMeasure),
    { kind: 'calibration', title: 'A/A calibration of this server and workload applies' },
  ];
  for (const point of points) {
    const at = `${point.threads} threads (${point.cores} cores)`;
    const own = id.isOwn({ point });
    if (!own) {
      tests.push({ kind: 'point-calibration', title: `A/A calibration at ${at} shows no overhead`, point });
    }
    const today = own && points.length === 1;
    tests.push({
      kind: 'measurement',
      title: today ? `overhead ${limit}` : `overhead at ${at} ${limit}`,
      point,
    });
  }
  // Closed-loop latency mostly mirrors throughput; at a fixed arrival rate, what the plugin adds queues.
  const open = openLoopPoint(run.openLoop, points);
  if (open) {
    const at = `${open.threads} threads, ${open.cores} cores`;
    const title = `open loop at ${OPEN_LOOP_PCT}% of the baseline's throughput (${at}) ${limit}`;
    tests.push({ kind: 'open-loop', title, point: open });
  }
  // The count itself runs after the last run (runs-on-server.ts, counted-cost.ts); its rates are read here, while
  // the run's plugin is installed and off on the wall-clock server.
  if (countedAfterRuns(config)) {
    tests.push({
      kind: 'rates',
      title: "machine rates for the count, read at the run's point with the plugin off",
    });
  }
  tests.push(...checks(lifecycleSteps.afterMeasure));
  return tests;
}
