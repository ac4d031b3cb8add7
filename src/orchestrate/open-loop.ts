import { type ConcurrencyPoint, openLoopRate, pointLabel } from '../workload/threads.ts';
import type { Outcome } from './outcome.ts';
import { pointMeasurement } from './point-measurement.ts';
import type { RunContext } from './run-state.ts';

/** The open-loop point: a fixed arrival rate, a share of its closed-loop point's baseline throughput. */
export async function openLoop(ctx: RunContext, point: ConcurrencyPoint): Promise<Outcome> {
  const baseline = ctx.state.measuredAt.get(pointLabel(point));
  if (!baseline) {
    return {
      skip: `the closed-loop point at ${point.threads} threads did not finish, so no baseline sets the rate`,
    };
  }
  return pointMeasurement(ctx, point, { ratePerS: openLoopRate(baseline.baselineTps), baseline });
}
