import { planFor } from '../bench/measure-plan.ts';
import { calibrate } from '../bench/pipeline.ts';
import { type ConcurrencyPoint, pointLabel } from '../workload/threads.ts';
import { holdsZero, type Outcome } from './outcome.ts';
import { type RunContext, unpin } from './run-state.ts';
import { measuringSeams } from './seams.ts';

/**
 * An A/A at a point other than the shared A/A's threads and cores: noise, and the p99 change's null control, differ
 * with concurrency.
 */
export async function pointCalibration(ctx: RunContext, point: ConcurrencyPoint): Promise<Outcome> {
  const { on, id, state } = ctx;
  const measured = state.traffic.measured();
  await unpin(on, point);
  const own = await calibrate(
    on.started(),
    planFor({ workload: on.workload, point, traffic: measured.traffic }),
    {
      progress: on.log(`A/A at ${point.threads} threads`),
      interference: ctx.policy.interference,
      ...measuringSeams(on.seams, measured.runner),
    },
  );
  state.calibratedAt.set(pointLabel(point), own);
  return {
    record: { ...id.resultKey(on.started().info, { point }), kind: 'calibration', calibration: own },
    expectations: holdsZero(own, ` at ${point.threads} threads`),
  };
}
