// Runs one measured block with the interference sampler around it; under the retry policy, measures a disturbed
// block again once the machine is quiet, as long as the measurement's deadline allows.

import type { InterferencePolicy } from '../config/interference-policy.ts';
import type { TargetKind } from '../servers/started-server.ts';
import { type BlockInterference, MEAN_OTHER_LIMIT_PCT } from './block-interference.ts';
import { type Clock, realClock } from './clock.ts';
import { startSampler } from './sampler.ts';
import { measuredOutsideTree } from './server-roots.ts';

export interface InterferenceOptions {
  policy: InterferencePolicy;
  /** The clock's time after which no block is re-measured (the plan's budget end). */
  deadlineMs: number;
  /** Re-measurements of one block at most. */
  maxRetries?: number;
}

/** Waits until other processes stay under the average limit for `windowMs`; false when the deadline comes first. */
export async function waitUntilQuiet(
  deadlineMs: number,
  windowMs = 5_000,
  clock: Clock = realClock,
): Promise<boolean> {
  while (clock.nowMs() + windowMs < deadlineMs) {
    const sampler = await startSampler();
    await clock.sleepMs(windowMs);
    if ((await sampler.stop()).otherCpuPct <= MEAN_OTHER_LIMIT_PCT) return true;
  }
  return false;
}

/** What sampledBlock needs from the machine; tests pass a fake. */
export interface Probe {
  start(target: TargetKind): Promise<{ stop(retries: number): Promise<BlockInterference> } | null>;
  waitUntilQuiet(deadlineMs: number): Promise<boolean>;
  nowMs(): number;
}

const liveProbe: Probe = {
  start: async (target) => {
    const outside = await measuredOutsideTree(target).catch(() => ({}));
    return startSampler(outside).catch(() => null);
  },
  waitUntilQuiet: (deadlineMs) => waitUntilQuiet(deadlineMs),
  nowMs: realClock.nowMs,
};

/** Measures a block while sampling /proc; the block comes back with its `interference` figures. */
export async function sampledBlock<B extends object>(
  measure: () => Promise<B>,
  options: InterferenceOptions | undefined,
  target: TargetKind = 'local',
  probe: Probe = liveProbe,
): Promise<B & { interference?: BlockInterference }> {
  const { policy = 'warn', deadlineMs = 0, maxRetries = 2 } = options ?? {};
  for (let retries = 0; ; retries++) {
    const sampler = await probe.start(target);
    const block = await measure();
    const interference = await sampler?.stop(retries).catch(() => undefined);
    const result = interference ? { ...block, interference } : block;
    // A block above the average limit is what pushes a measurement over it: that is the block worth measuring again.
    const retry =
      policy === 'retry' &&
      interference &&
      interference.otherCpuPct > MEAN_OTHER_LIMIT_PCT &&
      retries < maxRetries;
    if (!retry || probe.nowMs() >= deadlineMs || !(await probe.waitUntilQuiet(deadlineMs))) return result;
  }
}
