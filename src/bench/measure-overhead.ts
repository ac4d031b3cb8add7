import type { InterferencePolicy } from '../machine/policy.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { nextStep } from '../stats/adaptive.ts';
import type { TpsPair } from '../stats/tps-pair.ts';
import { prepareSysbench, runSysbench } from '../workload/sysbench-runner.ts';
import type { Design, Workload } from '../workload/workload.ts';
import { type Block, runsBlock, toggledBlock } from './blocks.ts';
import type { ArmSteps } from './toggled-run.ts';

export type Progress = (message: string) => void;

export interface OverheadSample {
  blocks: Block[];
  pairs: TpsPair[];
  warmupTps: number;
  wallS: number;
  stoppedBecause: 'decisive' | 'budget' | 'fixed';
  design: Design;
  /** CPU pinning in force during the measurement, e.g. 'server 0, sysbench 1', or null. */
  pinning: string | null;
}

export interface MeasureOptions {
  /** The gate's limit: adaptive sampling stops once the interval is clear of it. Null measures one block only. */
  limitPct: number | null;
  /** Plugin-on steps; for A/A calibration pass the disable steps so both arms are off. */
  arms?: ArmSteps;
  progress?: Progress;
  /** What a block measured while other processes used the CPUs does: warn (mark it), fail, or retry it. */
  interference?: InterferencePolicy;
}

/**
 * Applies the workload's server options (restart) and loads the tables, once per server: every run on it measures on
 * the same data. A plugin's own settings are applied by the run (they reset at each restart).
 */
export async function prepareMeasurement(
  server: StartedServer,
  workload: Workload,
  progress: Progress,
): Promise<void> {
  if (Object.keys(workload.serverOptions).length > 0) {
    await server.editConfig({ set: workload.serverOptions });
    await server.restart();
  }
  progress(`preparing ${workload.tables} tables × ${workload.tableSize} rows`);
  await prepareSysbench(server.connection, workload);
}

async function pin(
  server: StartedServer,
  workload: Workload,
): Promise<{ client?: string; label: string | null }> {
  if (!workload.pinCpus || !server.pinCpus || (await import('node:os')).availableParallelism() < 2) {
    return { label: null };
  }
  await server.pinCpus('0');
  return { client: '1', label: 'server on CPU 0, sysbench on CPU 1' };
}

/** The toggle design needs arms that switch with plain statements; a restart in them means separate runs. */
export function effectiveWorkload(workload: Workload, arms: ArmSteps): Workload {
  const live = [...arms.on, ...arms.off].every((step) => step.kind === 'sql');
  return live || workload.design.kind === 'runs' ? workload : { ...workload, design: { kind: 'runs' } };
}

const blockSeconds = (w: Workload) =>
  2 * w.pairs * (w.design.kind === 'toggle' ? w.design.segmentS : w.durationS);

/**
 * Measures plugin off against plugin on, block by block, after a discarded warm-up run (sysbench 1.0 has no
 * warm-up flag). With a limit, blocks are added until the verdict is decisive or the workload's budget is spent.
 */
export async function measureOverhead(
  server: StartedServer,
  profile: PluginProfile,
  requested: Workload,
  options: MeasureOptions,
): Promise<OverheadSample> {
  const progress = options.progress ?? (() => {});
  const arms = options.arms ?? { off: profile.disable, on: profile.enable };
  const workload = effectiveWorkload(requested, arms);
  const started = Date.now();
  const pinning = await pin(server, workload);
  await runSteps(server, arms.off, `Turning ${profile.name} off`);
  const warmup = await runSysbench(server.connection, workload, {
    durationS: workload.warmupS,
    ...(pinning.client ? { cpus: pinning.client } : {}),
  });
  if (!warmup.ok) throw new Error(`The warm-up sysbench run is invalid: ${warmup.reason}`);
  const blocks: Block[] = [];
  const pairs: TpsPair[] = [];
  const elapsedS = () => (Date.now() - started) / 1000;
  for (;;) {
    progress(
      `block ${blocks.length + 1}: ${workload.pairs} pairs, ~${blockSeconds(workload)} s (${Math.round(elapsedS())} s elapsed, budget ${workload.budgetS} s)`,
    );
    const interference = {
      policy: options.interference ?? 'warn',
      deadlineMs: started + workload.budgetS * 1000,
    };
    const context = { server, profile, workload, arms, cpus: pinning.client, interference };
    const block =
      workload.design.kind === 'toggle' ? await toggledBlock(context) : await runsBlock(context, progress);
    blocks.push(block);
    pairs.push(...block.pairs);
    progress(`block ${blocks.length} done: ${pairs.length} pairs so far`);
    if (options.limitPct === null) return done('fixed');
    const step = nextStep({
      pairsSoFar: pairs,
      limitPct: options.limitPct,
      minPairs: Math.max(2, workload.pairs),
      maxPairs: workload.maxPairs,
      elapsedS: elapsedS(),
      budgetS: workload.budgetS,
      perPairS: blockSeconds(workload),
      targetHalfWidthPct: workload.targetHalfWidthPct,
    });
    if (step === 'stop-decisive') return done('decisive');
    if (step === 'stop-budget') return done('budget');
  }

  function done(stoppedBecause: OverheadSample['stoppedBecause']): OverheadSample {
    return {
      blocks,
      pairs,
      warmupTps: warmup.ok ? warmup.result.tps : 0,
      wallS: elapsedS(),
      stoppedBecause,
      design: workload.design,
      pinning: pinning.label,
    };
  }
}
