// Per-block interference figures, and the rule that marks a result as measured under interference.
import { z } from 'zod';
import { type InterferencePolicy, interferencePolicies } from '../config/interference-policy.ts';
import type { IntervalUse } from './interference.ts';

export const blockInterferenceSchema = z.object({
  /** Seconds sampled (the block's measured time). */
  sampledS: z.number(),
  samples: z.number().int(),
  /** CPU used by processes other than the server, sysbench and auditbench, in % of one core: mean and worst second. */
  otherCpuPct: z.number(),
  otherCpuMaxPct: z.number(),
  /** Kernel threads (kworker, jbd2 …): reported, not judged, since much of it serves the server's own I/O. */
  kernelCpuPct: z.number(),
  /** auditbench's own processes (Vitest, log polling, this sampler), in % of one core. */
  selfCpuPct: z.number(),
  /** The server and sysbench, in % of one core. */
  measuredCpuPct: z.number(),
  /** Share of all CPU time the hypervisor gave to someone else, in %. */
  stealPct: z.number(),
  load1Mean: z.number(),
  load1Max: z.number(),
  /** The busiest other processes by name, in % of one core over the block. */
  topOthers: z.array(z.object({ comm: z.string(), cpuPct: z.number() })),
  /** How many times this block was measured again because of interference (`interference: 'retry'`). */
  retries: z.number().int().default(0),
});

export const interferenceSchema = z.object({
  flagged: z.boolean(),
  /** Why it is flagged, or the figures that kept it clean. */
  reason: z.string(),
  policy: z.enum(interferencePolicies),
  /** Mean over blocks, weighted by sampled time. */
  otherCpuPct: z.number(),
  selfCpuPct: z.number(),
  stealPct: z.number(),
  blocks: z.array(blockInterferenceSchema),
});

export type BlockInterference = z.infer<typeof blockInterferenceSchema>;
export type Interference = z.infer<typeof interferenceSchema>;

/** Other processes above this share of a core on average over a measurement mark it. */
export const MEAN_OTHER_LIMIT_PCT = 10;
/** Any single block whose other processes used more than this share of a core marks it. */
export const BLOCK_OTHER_LIMIT_PCT = 50;

const weightedMean = (items: { w: number; v: number }[]) => {
  const total = items.reduce((s, i) => s + i.w, 0);
  return total > 0 ? items.reduce((s, i) => s + i.w * i.v, 0) / total : 0;
};

/** One block's figures from the per-interval CPU use sampled while it ran. */
export function summariseBlock(intervals: readonly IntervalUse[], retries = 0): BlockInterference {
  const sampledS = intervals.reduce((s, i) => s + i.seconds, 0);
  const mean = (pick: (i: IntervalUse) => number) =>
    weightedMean(intervals.map((i) => ({ w: i.seconds, v: pick(i) })));
  const byComm = new Map<string, number>();
  for (const interval of intervals) {
    for (const [comm, ticks] of interval.otherTicksByComm) byComm.set(comm, (byComm.get(comm) ?? 0) + ticks);
  }
  const otherTicks = [...byComm.values()].reduce((s, t) => s + t, 0);
  const otherCpuPct = mean((i) => i.cpuPct.other);
  const topOthers = [...byComm]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([comm, ticks]) => ({ comm, cpuPct: otherTicks > 0 ? (otherCpuPct * ticks) / otherTicks : 0 }));
  return {
    sampledS,
    samples: intervals.length,
    otherCpuPct,
    otherCpuMaxPct: Math.max(0, ...intervals.map((i) => i.cpuPct.other)),
    kernelCpuPct: mean((i) => i.cpuPct.kernel),
    selfCpuPct: mean((i) => i.cpuPct.self),
    measuredCpuPct: mean((i) => i.cpuPct.measured),
    stealPct: mean((i) => i.stealPct),
    load1Mean: mean((i) => i.load1),
    load1Max: Math.max(0, ...intervals.map((i) => i.load1)),
    topOthers,
    retries,
  };
}

/** Whether one block alone was measured under interference (the retry policy re-measures such a block). */
export function blockInterfered(block: BlockInterference): boolean {
  return block.otherCpuPct > BLOCK_OTHER_LIMIT_PCT;
}

const pct = (v: number) => `${v.toFixed(0)}%`;

/** Marks a measurement whose blocks other processes loaded: above 10% of a core on average, or one block above 50%. */
export function judgeInterference(
  blocks: readonly BlockInterference[],
  policy: InterferencePolicy,
): Interference {
  const w = (pick: (b: BlockInterference) => number) =>
    weightedMean(blocks.map((b) => ({ w: b.sampledS, v: pick(b) })));
  const otherCpuPct = w((b) => b.otherCpuPct);
  const worst = blocks.reduce<BlockInterference | null>(
    (m, b) => (!m || b.otherCpuPct > m.otherCpuPct ? b : m),
    null,
  );
  const culprits = (worst?.topOthers ?? []).map((t) => `${t.comm} ${pct(t.cpuPct)}`).join(', ');
  const onAverage = otherCpuPct > MEAN_OTHER_LIMIT_PCT;
  const oneBlock = worst !== null && blockInterfered(worst);
  const flagged = onAverage || oneBlock;
  const figures = `other processes used ${pct(otherCpuPct)} of a core on average (worst block ${pct(worst?.otherCpuPct ?? 0)}${culprits ? `: ${culprits}` : ''}), load ${Math.max(0, ...blocks.map((b) => b.load1Max)).toFixed(1)}, steal ${w((b) => b.stealPct).toFixed(1)}%`;
  const limits = `limits ${MEAN_OTHER_LIMIT_PCT}% on average, ${BLOCK_OTHER_LIMIT_PCT}% in any block`;
  return {
    flagged,
    reason: flagged ? `measured under interference: ${figures} (${limits})` : `quiet: ${figures}`,
    policy,
    otherCpuPct,
    selfCpuPct: w((b) => b.selfCpuPct),
    stealPct: w((b) => b.stealPct),
    blocks: [...blocks],
  };
}

/** The measurement's `interference` field from its blocks; undefined when no block was sampled. */
export function interferenceOf(
  blocks: readonly { interference?: BlockInterference }[],
  policy: InterferencePolicy = 'warn',
): Interference | undefined {
  const sampled = blocks.flatMap((b) => (b.interference ? [b.interference] : []));
  return sampled.length > 0 ? judgeInterference(sampled, policy) : undefined;
}
