import { planFor } from '../bench/measure-plan.ts';
import { wallClockEventsPerTx } from '../counted/comparable.ts';
import { readMachineRates, withPrediction } from '../counted/machine-rates.ts';
import { countedLine, countedUnavailable } from '../counted/run-counted.ts';
import { pointLabel } from '../workload/threads.ts';
import { countPluginRun } from './counted-run.ts';
import { errorLine, type Outcome } from './outcome.ts';
import type { RunContext } from './run-state.ts';

/**
 * The counted channel: a server of its own under callgrind, after the wall clock has finished with the CPUs. A count
 * that throws is skipped with its one line, as a count that cannot run is: the run's wall-clock verdict stands alone
 * (AUDITBENCH_COUNTED=on makes it the run's failure instead, still one line).
 */
export async function countedCost(ctx: RunContext): Promise<Outcome> {
  const { on, id } = ctx;
  const { config } = on;
  const why = await countedUnavailable(config);
  if (why && config.counted === 'on') return { failure: `${id.run.id}: AUDITBENCH_COUNTED=on, but ${why}` };
  if (why) return { skip: `not counted: ${why}` };
  return count(ctx).catch((error: unknown) => {
    const outcome = countFailed(config.counted, id.run.id, error);
    ctx.progress(`counted: ${outcome.skip ?? outcome.failure}`);
    return outcome;
  });
}

/** A count that threw, as the counted test's outcome: skipped with its one line, or under `on` that line as a failure. */
export function countFailed(counted: 'auto' | 'on' | 'off', runId: string, error: unknown): Outcome {
  const line = errorLine(error);
  if (counted === 'on') return { failure: `${runId}: AUDITBENCH_COUNTED=on, but the count failed: ${line}` };
  return { skip: `not counted: ${line}` };
}

async function count(ctx: RunContext): Promise<Outcome> {
  const { on, id, state, progress } = ctx;
  const { config } = on;
  // traffic.added goes per transaction under valgrind, scaled by the run's own wall-clock throughput; the
  // counted on arms must log the audit events per transaction the wall clock logged.
  const measured = state.measuredAt.get(pointLabel(id.ownPoint));
  // The machine's rates, read on the wall-clock server while it is warm and before the counted one starts.
  const rates = measured ? await machineRates(ctx) : null;
  const countedAlone = await countPluginRun(
    config,
    id.run,
    {
      job: on.workload,
      configHash: id.key().configHash,
      wallClock: {
        tps: measured?.baselineTps ?? null,
        eventsPerTx: wallClockEventsPerTx(measured?.auditEvents),
      },
      progress,
    },
    on.seams,
  );
  const counted =
    rates && measured
      ? withPrediction(countedAlone, rates, { pct: measured.overheadPct, ci95: measured.overheadCi95 })
      : countedAlone;
  progress(`counted: ${countedLine(counted)}`);
  if (counted.prediction) progress(counted.prediction.line);
  return { record: { ...id.resultKey(on.started().info), kind: 'counted', counted } };
}

/** What a counted instruction and a write() cost on this machine, read at the run's own point. */
function machineRates(ctx: RunContext) {
  const { on, id, state } = ctx;
  const point = id.ownPoint;
  const { traffic, runner } = state.traffic.measured();
  return readMachineRates(on.started(), {
    job: planFor({ workload: on.workload, point, traffic }).job,
    pinned: point.cores === 'pinned',
    turnOff: id.run.profile.disable,
    runner,
    logFile: id.run.profile.log.file,
    ...(on.seams.clock ? { clock: on.seams.clock } : {}),
  });
}
