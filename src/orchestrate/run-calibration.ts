import { prepareMeasurement } from '../bench/measure-overhead.ts';
import { planFor } from '../bench/measure-plan.ts';
import { calibrate } from '../bench/pipeline.ts';
import { needsOwnCalibration } from '../traffic/run-traffic.ts';
import type { Outcome } from './outcome.ts';
import type { RunContext } from './run-state.ts';
import { measuringSeams } from './seams.ts';

/** The A/A that applies to the run: one of its own traffic (a script, added load), else the shared one. */
export async function runCalibration(ctx: RunContext): Promise<Outcome> {
  const { on, id, state, progress } = ctx;
  const server = on.started();
  if (needsOwnCalibration(id.run.traffic)) {
    const measured = state.traffic.measured();
    const planned = planFor({ workload: on.workload, traffic: measured.traffic });
    if (planned.job.script) await prepareMeasurement(server, planned, progress, measured.runner);
    state.ownCalibration = await calibrate(server, planned, {
      progress,
      interference: ctx.policy.interference,
      ...measuringSeams(on.seams, measured.runner),
    });
  }
  const applies = state.ownCalibration ?? ctx.shared.calibration;
  if (!applies) throw new Error('The shared A/A calibration did not finish; see its test');
  return { record: { ...id.resultKey(server.info), kind: 'calibration', calibration: applies } };
}
