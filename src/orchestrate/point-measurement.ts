import { planFor } from '../bench/measure-plan.ts';
import { limitFailure, measureRun } from '../bench/pipeline.ts';
import { pluginSubject } from '../bench/subject.ts';
import { afterGate, bankLine } from '../bench/time-bank.ts';
import type { Measurement } from '../results/schema.ts';
import type { ResultRecord } from '../results/task-meta.ts';
import { type ConcurrencyPoint, OPEN_LOOP_PCT, pointLabel } from '../workload/threads.ts';
import type { Outcome } from './outcome.ts';
import { type RunContext, unpin } from './run-state.ts';
import { measuringSeams } from './seams.ts';

/** An open loop's rate and the closed-loop measurement it was taken from. */
export interface OpenLoop {
  ratePerS: number;
  baseline: Measurement;
}

/** The overhead at one point (closed loop, or open at a rate), judged against the run's limit. */
export async function pointMeasurement(
  ctx: RunContext,
  point: ConcurrencyPoint,
  open?: OpenLoop,
): Promise<Outcome> {
  const { on, id, state, shared, progress } = ctx;
  const { run } = id;
  // Decided from the settings: measuring traffic the plugin does not audit would price an idle plugin.
  if (run.userFilter?.refusal) return { failure: `${run.id}: ${run.userFilter.refusal}` };
  const at = { point, ...(open && { ratePerS: open.ratePerS }) };
  const measured = state.traffic.measured();
  await unpin(on, point);
  const planned = planFor({
    workload: on.workload,
    point,
    traffic: measured.traffic,
    ...(open && { ratePerS: open.ratePerS }),
    bankedS: shared.bankedS,
    arms: pluginSubject(run.profile).arms,
  });
  const raised = bankLine(planned.plan.budgetS, on.workload);
  if (raised) progress(raised);
  const measurement = await measureRun(on.started(), run.profile, planned, {
    limitPct: run.maxOverheadPct,
    calibration: state.calibratedAt.get(pointLabel(point)) ?? state.ownCalibration ?? shared.calibration,
    progress,
    interference: ctx.policy.interference,
    ...measuringSeams(on.seams, measured.runner),
    traffic: measured.seen,
    maxP99IncreasePct: run.maxP99IncreasePct ?? null,
  });
  shared.bankedS = afterGate(shared.bankedS, on.workload, measurement.wallS);
  if (!open) state.measuredAt.set(pointLabel(point), measurement);
  const record: ResultRecord = {
    ...id.resultKey(on.started().info, at),
    kind: 'measurement',
    measurement: {
      ...measurement,
      threads: point.threads,
      cores: point.cores,
      ...(!id.isOwn(at) && { sweepOf: run.id }),
      ...(open && {
        openLoop: {
          ratePerS: open.ratePerS,
          ofBaselinePct: OPEN_LOOP_PCT,
          baselineTps: open.baseline.baselineTps,
          baselineRunId: id.key({ point }).runId,
        },
      }),
    },
  };
  const failure = limitFailure(measurement, ctx.policy, id.where(on.started().info, at));
  return failure ? { record, failure } : { record };
}
