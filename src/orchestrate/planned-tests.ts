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
  | { kind: 'counted'; title: string };

/**
 * A run's tests: its lifecycle checks, the A/A that applies, each point (its own A/A when not the workload's, then its
 * measurement), the open loop, the count on a local server, then the checks after the measurement.
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
  if (config.target === 'local' && config.counted !== 'off') {
    tests.push({
      kind: 'counted',
      title: 'counted cost per transaction under callgrind, beside the wall clock',
    });
  }
  tests.push(...checks(lifecycleSteps.afterMeasure));
  return tests;
}
