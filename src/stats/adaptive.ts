import { pairedOverhead } from './paired-overhead.ts';
import { tQuantile } from './student-t.ts';
import type { Arm, TpsPair } from './tps-pair.ts';
import { decideVerdict } from './verdict.ts';

export type NextStep = 'continue' | 'stop-decisive' | 'stop-budget';

export interface StoppingInput {
  pairsSoFar: readonly TpsPair[];
  limitPct: number;
  /** Pairs measured before the first look at the verdict; at least 2, since one pair has no interval. */
  minPairs: number;
  maxPairs: number;
  elapsedS: number;
  budgetS: number;
  /** Wall time one more pair takes (both runs, plus any reset between them). */
  perPairS: number;
  /**
   * Keep measuring, within the budget, until the within-run interval's half-width (in pp, the wider side, τ left
   * out) is at most this, even once the verdict is decisive: a figure tracked over time needs precision, not just a
   * side of the limit. τ is left out because more pairs cannot shrink it.
   */
  targetHalfWidthPct?: number | null;
  /** The workload's run-to-run spread, which the gate's interval carries (paired-overhead.ts). */
  runToRunSdLog?: number;
}

/**
 * Decides whether to measure another pair. Every look at a 95% interval is another chance of a wrong
 * verdict, so looking after each pair makes "decisive" somewhat less than 95% sure; minPairs delays the
 * first look until the interval's spread estimate is steadier, which is where early looks mislead most.
 */
export function nextStep(input: StoppingInput): NextStep {
  const { pairsSoFar, limitPct, minPairs, maxPairs, elapsedS, budgetS, perPairS } = validateStopping(input);
  if (pairsSoFar.length >= minPairs) {
    const estimate = pairedOverhead(pairsSoFar, { runToRunSdLog: input.runToRunSdLog ?? 0 });
    const decisive = decideVerdict({ ...estimate, limitPct }).verdict !== 'inconclusive';
    const withinRun = pairedOverhead(pairsSoFar);
    if (decisive && isPreciseEnough(withinRun.ci95, withinRun.estimatePct, input.targetHalfWidthPct)) {
      return 'stop-decisive';
    }
  }
  if (pairsSoFar.length >= maxPairs) return 'stop-budget';
  // Start a pair only if it can finish: a half-measured pair is useless.
  if (elapsedS + perPairS > budgetS) return 'stop-budget';
  return 'continue';
}

/** The wider side of the interval, in pp, is within the target (always, without a target). */
export function isPreciseEnough(
  ci95: readonly [number, number] | null,
  estimatePct: number,
  targetHalfWidthPct: number | null | undefined,
): boolean {
  if (targetHalfWidthPct == null) return true;
  if (ci95 === null) return false;
  return Math.max(estimatePct - ci95[0], ci95[1] - estimatePct) <= targetHalfWidthPct;
}

function validateStopping(input: StoppingInput): StoppingInput {
  const { minPairs, maxPairs, elapsedS, budgetS, perPairS } = input;
  if (!Number.isInteger(minPairs) || minPairs < 2) {
    throw new Error(`minPairs must be an integer of at least 2 (one pair has no interval), got ${minPairs}`);
  }
  if (!Number.isInteger(maxPairs) || maxPairs < minPairs) {
    throw new Error(`maxPairs must be an integer no smaller than minPairs (${minPairs}), got ${maxPairs}`);
  }
  if (!Number.isFinite(elapsedS) || elapsedS < 0)
    throw new Error(`elapsedS must be at least 0, got ${elapsedS}`);
  if (!Number.isFinite(budgetS) || budgetS < 0) throw new Error(`budgetS must be at least 0, got ${budgetS}`);
  if (!Number.isFinite(perPairS) || perPairS <= 0) {
    throw new Error(`perPairS must be a positive number of seconds, got ${perPairS}`);
  }
  const target = input.targetHalfWidthPct;
  if (target != null && !(Number.isFinite(target) && target > 0)) {
    throw new Error(
      `targetHalfWidthPct must be a positive number of percentage points or null, got ${target}`,
    );
  }
  return input;
}

/**
 * Run order for nPairs interleaved pairs: off,on, on,off, off,on, … (ABBA). Each pair holds both arms,
 * and the arm that goes first alternates, so a steady drift favours neither arm over two pairs.
 */
export function abbaOrder(nPairs: number): Arm[] {
  if (!Number.isInteger(nPairs) || nPairs < 1) {
    throw new Error(`nPairs must be a positive integer, got ${nPairs}`);
  }
  const order: Arm[] = [];
  for (let pair = 0; pair < nPairs; pair++) {
    order.push(...(pair % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)));
  }
  return order;
}

/** The fewest pairs worth a block of their own: the smallest extension, and the shortest block in a budget's end. */
export const MIN_EXTENSION_PAIRS = 4;

/**
 * Pairs in the next block. While the verdict is undecided (τ included), a whole block. Once it is decisive and only
 * the precision target is missing, about as many pairs as that target needs: the target is on the within-run
 * interval, which shrinks with √pairs. A gate at ±1.7 pp after 10 pairs needs ~3 more for ±1.5, not another 10.
 * Even (ABBA order), from minExtension to blockPairs.
 */
export function nextBlockPairs(input: {
  pairsSoFar: readonly TpsPair[];
  limitPct: number | null;
  blockPairs: number;
  targetHalfWidthPct: number | null | undefined;
  runToRunSdLog?: number;
  minExtension?: number;
}): number {
  const { pairsSoFar, limitPct, blockPairs, targetHalfWidthPct } = input;
  const minExtension = Math.min(blockPairs, input.minExtension ?? MIN_EXTENSION_PAIRS);
  const tau = input.runToRunSdLog ?? 0;
  const n = pairsSoFar.length;
  if (limitPct === null || targetHalfWidthPct == null || n < 2) return blockPairs;
  const estimate = pairedOverhead(pairsSoFar, { runToRunSdLog: tau });
  if (decideVerdict({ ...estimate, limitPct }).verdict === 'inconclusive' || estimate.ci95 === null) {
    return blockPairs;
  }
  // On the log scale, where the half-width is t·√(sd²/n + τ²); a half-width h there is about 100·(on/off)·h pp.
  const t = tQuantile(0.975, estimate.degreesOfFreedom);
  const within = (estimate.sdLogRatio / Math.sqrt(n)) * t;
  const targetLog = targetHalfWidthPct / (100 - estimate.estimatePct);
  const needed = Math.ceil(n * (within / targetLog) ** 2) - n;
  const even = needed + (needed % 2);
  return Math.max(minExtension, Math.min(blockPairs, even));
}

/**
 * The warm-up's stopping rule: discarded chunks run until the last two agree within tolerancePct (the server's
 * caches have filled and the load's dirty pages are flushed) once minS has passed, and never past maxS.
 */
export function warmedUp(input: {
  chunkTps: readonly number[];
  elapsedS: number;
  minS: number;
  maxS: number;
  tolerancePct: number;
}): boolean {
  const { chunkTps, elapsedS, minS, maxS, tolerancePct } = input;
  if (elapsedS >= maxS) return true;
  if (elapsedS < minS || chunkTps.length < 2) return false;
  const last = chunkTps.at(-1) as number;
  const previous = chunkTps.at(-2) as number;
  if (!(previous > 0)) return false;
  return (Math.abs(last - previous) / previous) * 100 <= tolerancePct;
}
