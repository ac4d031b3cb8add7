import type { Environment } from '../config/env.ts';
import { policyOn } from '../config/policy.ts';
import type { MeasuredOnce } from '../orchestrate/measured-once.ts';
import type { Outcome } from '../orchestrate/outcome.ts';
import { runsOnServer } from '../orchestrate/runs-on-server.ts';
import type { LifecycleCheck } from '../results/lifecycle-check.ts';
import type { ResultRecord } from '../results/task-meta.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { getWorkload } from '../workload/workloads.ts';
import type { RunMeasurement } from './matchers.ts';

/** What `bench.run()` gives a test: every planned test's outcome, its lifecycle checks and its measurement. */
export interface BenchResult {
  outcomes: { title: string; outcome: Outcome }[];
  checks: LifecycleCheck[];
  /** The run's measurement at the workload's own point, for `toCostAtMostPct`; null when none finished. */
  measurement: RunMeasurement | null;
}

/**
 * The run as `auditbench bench` measures it (src/orchestrate/runs-on-server.ts), on a server of its own: its
 * lifecycle checks, its A/A, its measurement, its uninstall (the A/A and measurement reused when another file of the
 * invocation took them: src/orchestrate/measured-once.ts). The counted channel is left to the bench.
 */
export async function benchRun(
  config: Environment,
  run: ResolvedRun,
  measuredOnce: MeasuredOnce | null = null,
): Promise<BenchResult> {
  const session = runsOnServer(config, [run], {}, measuredOnce);
  const outcomes: BenchResult['outcomes'] = [];
  try {
    await session.start();
    outcomes.push({ title: session.firstTitle, outcome: await session.prepare() });
    for (const planned of session.runs.flatMap((r) => r.tests.map((test) => ({ r, test })))) {
      if (planned.test.kind === 'rates') continue;
      if (planned.r.tests[0] === planned.test) await planned.r.open();
      outcomes.push({ title: planned.test.title, outcome: await planned.r.perform(planned.test) });
    }
    for (const r of session.runs) await r.close();
  } finally {
    await session.stop();
  }
  return {
    outcomes,
    checks: records(outcomes).flatMap((r) => (r.kind === 'lifecycle' ? [r.check] : [])),
    measurement: measurementOf(outcomes, config, run),
  };
}

const records = (outcomes: BenchResult['outcomes']): ResultRecord[] =>
  outcomes.flatMap(({ outcome }) => (outcome.record ? [outcome.record] : []));

function measurementOf(
  outcomes: BenchResult['outcomes'],
  config: Environment,
  run: ResolvedRun,
): RunMeasurement | null {
  const workload = getWorkload(config.workload);
  for (const record of records(outcomes)) {
    if (record.kind === 'measurement' && record.runId === run.id) {
      return {
        measurement: record.measurement,
        policy: policyOn(workload.name, run.policy),
        where: `${run.title}, ${workload.name} workload`,
      };
    }
  }
  return null;
}
