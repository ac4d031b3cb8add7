import type { BlockInterference } from '../machine/block-interference.ts';
import type { Clock } from '../machine/clock.ts';
import { type InterferenceOptions, type Probe, sampledBlock } from '../machine/sampled-block.ts';
import type { EventCounts } from '../plugins/logs/event-class.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import { type LatencyPair, latencyPairs, poolBySegment } from '../stats/latency-segments.ts';
import { type ArmSwitch, keptSpans, type Segment, segmentToggledRun } from '../stats/segments.ts';
import type { Arm, TpsPair } from '../stats/tps-pair.ts';
import { LATENCY_SLOT_MS } from '../workload/latency-lines.ts';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import type { Design, SysbenchJob } from '../workload/workload.ts';
import { watchLogGrowth } from './log-poller.ts';
import { type MemorySample, sampleMemory } from './memory.ts';
import { type MeasuredSubject, realSysbench, type SysbenchRunner } from './subject.ts';
import { switchToleranceFor, toggledRun } from './toggled-run.ts';

/** One sysbench run as measured: a whole arm (runs design) or both arms switched inside it (toggle design). */
export interface MeasuredRun {
  arm: Arm | 'toggled';
  result: SysbenchResult;
  /** When each arm began (toggle design); a single entry for a whole-arm run. */
  schedule: ArmSwitch[];
  /** Audit log bytes written during the run. */
  logBytes: number;
  /** Transactions and seconds while the plugin was on, for bytes per transaction and MB per minute. */
  onTransactions: number;
  onSeconds: number;
  /** Events the plugin wrote in plugin-on time (src/bench/log-poller.ts); null when it writes no parsed log. */
  onEvents?: EventCounts | null;
  /** Events in the off arm's time: a gate's base arm logs too; the plugin's own off arm only the switch. */
  offEvents?: EventCounts | null;
  /** The server's resident memory during the run, by arm (src/bench/memory.ts); absent or empty where unread. */
  memory?: MemorySample[];
}

/** A block's latency pairs (the TPS pairs whose segments pooled enough transactions), or why it has none. */
export type BlockLatency =
  | { ok: true; pairs: LatencyPair[]; skippedPairs: number }
  | { ok: false; reason: string };

export interface Block {
  pairs: TpsPair[];
  runs: MeasuredRun[];
  /** Absent where the runner gave no latency (a scripted runner in tests). */
  latency?: BlockLatency;
  /** Who else used the CPUs while the block ran (src/machine); absent where /proc cannot be read. */
  interference?: BlockInterference;
}

/**
 * What one block runs: its pairs, how the arms interleave, and how long a whole-arm run lasts. measureOverhead
 * derives it from the plan (its design, the pairs the stopping rule asks for) and leaves the
 * job as what sysbench runs.
 */
export interface BlockPlan {
  pairs: number;
  design: Design;
  /** One whole-arm run (runs design); a toggled run lasts 2 · pairs · segmentS. */
  durationS: number;
}

/** Measuring seconds a block of this plan takes. */
export const blockSeconds = (plan: BlockPlan): number =>
  2 * plan.pairs * (plan.design.kind === 'toggle' ? plan.design.segmentS : plan.durationS);

/**
 * The pairs of this plan that fit in `seconds`: its own count when they all fit, else as many as do, unless that is
 * fewer than `atLeast` (a block that short is not worth its start), when it is 0.
 */
export function pairsWithin(plan: BlockPlan, seconds: number, atLeast: number): number {
  const fit = Math.min(plan.pairs, Math.floor(seconds / blockSeconds({ ...plan, pairs: 1 })));
  return fit >= Math.min(atLeast, plan.pairs) ? fit : 0;
}

export interface BlockContext {
  server: StartedServer;
  subject: MeasuredSubject;
  /** What sysbench runs (tables, threads, script, options). */
  job: SysbenchJob;
  plan: BlockPlan;
  cpus: string | undefined;
  /** The real sysbench unless a test injects one. */
  runner?: SysbenchRunner;
  /** The run's `interference` policy and the budget's end; without it a disturbed block is only marked (warn). */
  interference?: InterferenceOptions;
  /** The machine sampler; tests pass a fake (src/machine/sampled-block.ts). */
  probe?: Probe;
  /** The clock a toggled run switches by; the real one unless a test passes its own. */
  clock?: Clock;
}

/** Which arm each per-second interval belongs to, judged at the interval's midpoint. */
export function onShare(
  result: SysbenchResult,
  schedule: ArmSwitch[],
): { transactions: number; seconds: number } {
  let transactions = 0;
  let seconds = 0;
  let previousAtS = 0;
  for (const interval of result.intervals) {
    const midS = (previousAtS + interval.atS) / 2;
    const lengthS = interval.atS - previousAtS;
    previousAtS = interval.atS;
    const arm = [...schedule].reverse().find((s) => s.atS <= midS)?.arm ?? schedule[0]?.arm;
    if (arm !== 'on') continue;
    transactions += interval.tps * lengthS;
    seconds += lengthS;
  }
  return { transactions, seconds };
}

/**
 * Which seconds of a toggled run a segment keeps: the one holding the switch is dropped, none after it (a live switch
 * has no backlog). TPS and latency read the same seconds, so both take this one value.
 */
const KEPT_SECONDS = { settleIntervals: 0 } as const;

export const toggledBlock = (ctx: BlockContext): Promise<Block> =>
  sampledBlock(() => toggledBlockOnce(ctx), ctx.interference, ctx.server.info.target, ctx.probe);

async function toggledBlockOnce(ctx: BlockContext): Promise<Block> {
  const { job, plan } = ctx;
  const { design } = plan;
  if (design.kind !== 'toggle') throw new Error(`Workload '${job.name}' does not toggle`);
  const run = await toggledRun(ctx.server, ctx.subject, job, {
    design,
    pairs: plan.pairs,
    ...(ctx.cpus ? { cpus: ctx.cpus } : {}),
    ...(ctx.runner ? { runner: ctx.runner } : {}),
    ...(ctx.clock ? { clock: ctx.clock } : {}),
  });
  const [first, ...rest] = run.schedule;
  if (!first) throw new Error('A toggled run recorded no schedule');
  // Each segment is its median kept second, so one stalled second cannot decide a pair.
  const segmented = segmentToggledRun(run.result.intervals, [first, ...rest], {
    ...KEPT_SECONDS,
    switchToleranceS: switchToleranceFor(plan.design),
    center: 'median',
  });
  const share = onShare(run.result, run.schedule);
  return {
    pairs: segmented.pairs,
    latency: toggledLatency(run, [first, ...rest], segmented.segments, switchToleranceFor(plan.design)),
    runs: [
      {
        arm: 'toggled',
        result: run.result,
        schedule: run.schedule,
        logBytes: run.logBytes,
        onEvents: run.onEvents,
        offEvents: run.offEvents,
        memory: run.memory,
        onTransactions: share.transactions,
        onSeconds: share.seconds,
      },
    ],
  };
}

/** The latency pairs of a toggled run: its slots pooled over the seconds each segment kept for TPS. */
function toggledLatency(
  run: Awaited<ReturnType<typeof toggledRun>>,
  schedule: [ArmSwitch, ...ArmSwitch[]],
  segments: Segment[],
  tolerance: number,
): BlockLatency {
  const latency = run.result.latency;
  if (!latency) return { ok: false, reason: 'the sysbench runner reported no latency' };
  if (!latency.ok) return latency;
  const spans = keptSpans(run.result.intervals, schedule, { ...KEPT_SECONDS, switchToleranceS: tolerance });
  const pooled = poolBySegment(latency.slots, spans, {
    startedAtMs: run.startedAtMs,
    slotMs: LATENCY_SLOT_MS,
  });
  const { pairs, skipped } = latencyPairs(segments, pooled);
  return { ok: true, pairs, skippedPairs: skipped };
}

export const runsBlock = (ctx: BlockContext, progress: (message: string) => void): Promise<Block> =>
  sampledBlock(() => runsBlockOnce(ctx, progress), ctx.interference, ctx.server.info.target, ctx.probe);

async function runsBlockOnce(ctx: BlockContext, progress: (message: string) => void): Promise<Block> {
  const runs: MeasuredRun[] = [];
  const pairs: TpsPair[] = [];
  let pending: Partial<TpsPair> = {};
  for (const arm of abbaOrder(ctx.plan.pairs)) {
    await runSteps(ctx.server, ctx.subject.arms[arm], `Turning ${ctx.subject.label} ${arm}`);
    const watcher = await watchLogGrowth(ctx.server, ctx.subject.log, arm);
    const memory: MemorySample[] = [];
    // The server's resident memory halfway through the run, under load (a run that ends sooner reads none).
    let sampling: Promise<void> | undefined;
    const halfway = ctx.server.residentBytes
      ? setTimeout(() => {
          sampling = sampleMemory(ctx.server, arm, memory);
        }, ctx.plan.durationS * 500)
      : undefined;
    const outcome = await (ctx.runner ?? realSysbench)
      .run(ctx.server.connection, ctx.job, {
        durationS: ctx.plan.durationS,
        ...(ctx.cpus ? { cpus: ctx.cpus } : {}),
      })
      .finally(() => clearTimeout(halfway));
    await sampling;
    const log = await watcher.stop();
    if (!outcome.ok) throw new Error(`The plugin-${arm} sysbench run is invalid: ${outcome.reason}`);
    const { result } = outcome;
    const on = arm === 'on';
    runs.push({
      arm,
      result,
      schedule: [{ atS: 0, arm }],
      logBytes: log.bytes,
      onEvents: log.onEvents,
      offEvents: log.offEvents,
      memory,
      onTransactions: on ? result.transactions : 0,
      onSeconds: on ? result.durationS : 0,
    });
    progress(`plugin ${arm}: ${result.tps.toFixed(1)} tps`);
    pending = arm === 'off' ? { ...pending, offTps: result.tps } : { ...pending, onTps: result.tps };
    if (pending.offTps !== undefined && pending.onTps !== undefined) {
      pairs.push({ offTps: pending.offTps, onTps: pending.onTps });
      pending = {};
    }
  }
  await runSteps(ctx.server, ctx.subject.arms.off, `Turning ${ctx.subject.label} off`);
  return { pairs, runs };
}
