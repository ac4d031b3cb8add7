import type { InterferencePolicy } from '../config/interference-policy.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import type { Probe } from '../machine/sampled-block.ts';
import { runSteps } from '../plugins/steps.ts';
import { NeedsRestartCommandError } from '../servers/external-server.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { MIN_EXTENSION_PAIRS, nextBlockPairs, nextStep, warmedUp } from '../stats/adaptive.ts';
import type { TpsPair } from '../stats/tps-pair.ts';
import type { Design, MeasurePlan } from '../workload/workload.ts';
import { type Block, type BlockPlan, blockSeconds, pairsWithin, runsBlock, toggledBlock } from './blocks.ts';
import { type Planned, switchesLive } from './measure-plan.ts';
import { type MeasuredSubject, realSysbench, type SysbenchRunner } from './subject.ts';

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
  progress?: Progress;
  /** The real sysbench unless a test injects one. */
  runner?: SysbenchRunner;
  /** What a block blockPlan while other processes used the CPUs does: warn (mark it), fail, or retry it. */
  interference?: InterferencePolicy;
  /** The machine sampler blocks run under; tests pass a fake. */
  probe?: Probe;
  /** The clock the budget is counted on and switches are timed by; the real one unless a test passes its own. */
  clock?: Clock;
}

/**
 * Applies the workload's server options (restart) and loads the tables, once per server: every run on it measures on
 * the same data. A plugin's own settings are applied by the run (they reset at each restart).
 */
export async function prepareMeasurement(
  server: StartedServer,
  { job, plan }: Planned,
  progress: Progress,
  runner: SysbenchRunner = realSysbench,
): Promise<void> {
  if (Object.keys(job.serverOptions).length > 0) {
    await server.editConfig({ set: job.serverOptions });
    await server.restart();
  }
  progress(`preparing ${job.tables} tables × ${job.tableSize} rows`);
  await runner.prepare(server.connection, job);
  // The load leaves dirty pages that InnoDB would flush during the first measurement. A clean shutdown writes them
  // out (innodb_fast_shutdown=1 skips purge, not flushing), so each measurement's own warm-up only has to refill the
  // caches. An external server without a restart command gets one whole warm-up instead.
  await server.restart().catch(async (error: unknown) => {
    if (!(error instanceof NeedsRestartCommandError)) throw error;
    const settle = await runner.run(server.connection, job, { durationS: plan.warmupS });
    if (!settle.ok) throw new Error(`The sysbench run after loading the tables is invalid: ${settle.reason}`);
  });
}

const WARMUP_CHUNK_S = 5;
const WARMUP_TOLERANCE_PCT = 5;

/** Discarded chunks of sysbench until two in a row agree (src/stats/adaptive.ts, warmedUp). */
async function warmUp(
  server: StartedServer,
  { job, plan }: Planned,
  cpus: string | undefined,
  runner: SysbenchRunner,
): Promise<{ tps: number; seconds: number; chunkTps: number[] }> {
  const chunkTps: number[] = [];
  let seconds = 0;
  // A warm-up with no room to end early (seed: 60 s at least and at most) is one run, not a dozen reconnects. Two
  // chunks fit in the shortest warm-up allowed (quick: 6 s, two of 3 s).
  const chunkS =
    plan.minWarmupS >= plan.warmupS
      ? plan.warmupS
      : Math.max(1, Math.min(WARMUP_CHUNK_S, Math.floor(plan.minWarmupS / 2)));
  for (;;) {
    const durationS = Math.min(chunkS, plan.warmupS - seconds);
    const chunk = await runner.run(server.connection, job, { durationS, ...(cpus ? { cpus } : {}) });
    if (!chunk.ok) throw new Error(`The warm-up sysbench run is invalid: ${chunk.reason}`);
    chunkTps.push(chunk.result.tps);
    seconds += durationS;
    const rule = { minS: plan.minWarmupS, maxS: plan.warmupS, tolerancePct: WARMUP_TOLERANCE_PCT };
    if (warmedUp({ ...rule, chunkTps, elapsedS: seconds }))
      return { tps: chunk.result.tps, seconds, chunkTps };
  }
}

async function pin(
  server: StartedServer,
  plan: MeasurePlan,
): Promise<{ client?: string; label: string | null }> {
  if (!plan.pinCpus || !server.pinCpus || (await import('node:os')).availableParallelism() < 2) {
    return { label: null };
  }
  await server.pinCpus('0');
  return { client: '1', label: 'server on CPU 0, sysbench on CPU 1' };
}

/** A block of `pairs` pairs in the plan's design. */
const blockOf = (plan: MeasurePlan, pairs: number): BlockPlan => ({
  pairs,
  design: plan.design,
  durationS: plan.durationS,
});

/**
 * Measures plugin off against plugin on, block by block, after a discarded warm-up (sysbench 1.0 has no warm-up
 * flag). With a limit, blocks are added until the verdict is decisive or the workload's budget is spent; once only
 * the precision target is missing, the next block is sized to it (nextBlockPairs).
 */
export async function measureOverhead(
  server: StartedServer,
  subject: MeasuredSubject,
  planned: Planned,
  options: MeasureOptions,
): Promise<OverheadSample> {
  const progress = options.progress ?? (() => {});
  const runner = options.runner ?? realSysbench;
  const { job, plan } = planned;
  if (plan.design.kind === 'toggle' && !switchesLive(subject.arms)) {
    throw new Error(
      `${subject.label}'s arms restart the server, so they cannot be toggled inside one run: plan with planFor({ arms })`,
    );
  }
  const clock = options.clock ?? realClock;
  const started = clock.nowMs();
  const pinning = await pin(server, plan);
  await runSteps(server, subject.arms.off, `Turning ${subject.label} off`);
  const warmup = await warmUp(server, planned, pinning.client, runner);
  progress(
    `warm-up: ${warmup.seconds} s, TPS by chunk ${warmup.chunkTps.map((t) => t.toFixed(0)).join(', ')}`,
  );
  const blocks: Block[] = [];
  const pairs: TpsPair[] = [];
  const elapsedS = () => (clock.nowMs() - started) / 1000;
  let blockPairs = plan.pairs;
  for (;;) {
    const blockPlan = blockOf(plan, blockPairs);
    progress(
      `block ${blocks.length + 1}: ${blockPairs} pairs, ~${blockSeconds(blockPlan)} s (${Math.round(elapsedS())} s elapsed, budget ${plan.budgetS} s)`,
    );
    const interference = {
      policy: options.interference ?? 'warn',
      deadlineMs: started + plan.budgetS * 1000,
    };
    const context = {
      server,
      subject,
      job,
      plan: blockPlan,
      cpus: pinning.client,
      interference,
      runner,
      clock,
    };
    const probed = options.probe ? { ...context, probe: options.probe } : context;
    const block =
      blockPlan.design.kind === 'toggle' ? await toggledBlock(probed) : await runsBlock(probed, progress);
    blocks.push(block);
    pairs.push(...block.pairs);
    progress(`block ${blocks.length} done: ${pairs.length} pairs so far`);
    if (options.limitPct === null) return done('fixed');
    const sizedToTarget = nextBlockPairs({
      pairsSoFar: pairs,
      limitPct: options.limitPct,
      blockPairs: plan.pairs,
      targetHalfWidthPct: plan.targetHalfWidthPct,
      runToRunSdLog: plan.runToRunSdLog,
    });
    blockPairs = Math.max(1, Math.min(sizedToTarget, plan.maxPairs - pairs.length));
    // The budget's last seconds: a shorter block that still fits, rather than none.
    const fitting = pairsWithin(blockOf(plan, blockPairs), plan.budgetS - elapsedS(), MIN_EXTENSION_PAIRS);
    if (fitting > 0) blockPairs = fitting;
    const step = nextStep({
      pairsSoFar: pairs,
      limitPct: options.limitPct,
      minPairs: Math.max(2, plan.pairs),
      maxPairs: plan.maxPairs,
      elapsedS: elapsedS(),
      budgetS: plan.budgetS,
      perPairS: blockSeconds(blockOf(plan, blockPairs)),
      targetHalfWidthPct: plan.targetHalfWidthPct,
      runToRunSdLog: plan.runToRunSdLog,
    });
    if (step === 'stop-decisive') return done('decisive');
    if (step === 'stop-budget') return done('budget');
  }

  function done(stoppedBecause: OverheadSample['stoppedBecause']): OverheadSample {
    return {
      blocks,
      pairs,
      warmupTps: warmup.tps,
      wallS: elapsedS(),
      stoppedBecause,
      design: plan.design,
      pinning: pinning.label,
    };
  }
}
