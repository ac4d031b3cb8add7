// Default method: a t interval on paired log-ratios ln(on/off), back-transformed to an overhead.
// - Ratios are scale-free: a pair measured while the machine ran 5% slow still says "on is 10% slower".
// - The log makes ratios symmetric (on/off = 0.5 and 2 sit at ±ln 2) and roughly normal, which the t
//   interval assumes; means of raw per-pair percentages are skewed and biased for large overheads.
// - Pairs share data and sit next to each other in time, so slow drift (cache warm-up, background load,
//   thermal) cancels inside each pair instead of widening the interval.
// The bootstrap below makes no normality assumption, but its percentile interval under-covers with the
// handful of pairs a benchmark can afford (simulated: 75% at 3 pairs, 82% at 5, 90% at 8, 94% at 20,
// where t holds 95%), so it is offered only as a cross-check.
import { mean, sampleSd } from './descriptive.ts';
import { createRng } from './random.ts';
import { tHalfWidth } from './student-t.ts';
import { logRatios, type NonEmpty, type TpsPair } from './tps-pair.ts';

/** A 95% interval for the overhead, in percent: [lowerPct, upperPct]. */
export type Ci95Pct = [lowerPct: number, upperPct: number];

interface EstimateCore {
  method: 't-log-ratio';
  pairCount: number;
  /** 100·(1 − on/off) for each pair, in input order. */
  perPairOverheadPct: NonEmpty<number>;
  /** 100·(1 − exp(mean ln(on/off))): the overhead of the geometric-mean ratio. */
  estimatePct: number;
  meanLogRatio: number;
}

export type OverheadEstimate = EstimateCore &
  ({ sdLogRatio: number; ci95: Ci95Pct } | { sdLogRatio: null; ci95: null; noIntervalReason: string });

/** Overhead in percent for a log-ratio ln(on/off): 0 means no cost, 10 means on runs 10% slower. */
export function overheadPctFromLogRatio(logRatio: number): number {
  return 100 * (1 - Math.exp(logRatio));
}

/** Turns an interval on ln(on/off) into an overhead interval; the order flips, a higher ratio is less overhead. */
export function ci95FromLogBounds(lowerLog: number, upperLog: number): Ci95Pct {
  return [overheadPctFromLogRatio(upperLog), overheadPctFromLogRatio(lowerLog)];
}

/** Estimates the overhead from interleaved off/on pairs, with a 95% t interval once there are 2+ pairs. */
export function pairedOverhead(pairs: readonly TpsPair[]): OverheadEstimate {
  const ratios = logRatios(pairs);
  const meanLogRatio = mean(ratios);
  const core: EstimateCore = {
    method: 't-log-ratio',
    pairCount: ratios.length,
    perPairOverheadPct: ratios.map(overheadPctFromLogRatio) as NonEmpty<number>,
    estimatePct: overheadPctFromLogRatio(meanLogRatio),
    meanLogRatio,
  };
  const sdLogRatio = sampleSd(ratios);
  if (sdLogRatio === null) {
    return {
      ...core,
      sdLogRatio: null,
      ci95: null,
      noIntervalReason: 'one pair gives no spread, so no interval: measure at least 2 pairs',
    };
  }
  const halfWidthLog = tHalfWidth(sdLogRatio, ratios.length);
  const ci95 = ci95FromLogBounds(meanLogRatio - halfWidthLog, meanLogRatio + halfWidthLog);
  return { ...core, sdLogRatio, ci95 };
}

export interface BootstrapOptions {
  /** Seed for the resampling stream; the same seed and pairs give the same interval. */
  seed: number;
  resamples?: number;
}

/** Percentile-bootstrap 95% interval of the overhead (resampling pairs); null with one pair. */
export function bootstrapOverheadCi95(pairs: readonly TpsPair[], options: BootstrapOptions): Ci95Pct | null {
  const { seed, resamples = 10_000 } = options;
  if (!Number.isInteger(resamples) || resamples < 100) {
    throw new Error(`resamples must be an integer of at least 100, got ${resamples}`);
  }
  const ratios = logRatios(pairs);
  if (ratios.length < 2) return null;
  const rng = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < ratios.length; i++) sum += ratios[rng.integer(ratios.length)] ?? 0;
    means[r] = sum / ratios.length;
  }
  means.sort();
  return ci95FromLogBounds(sortedQuantile(means, 0.025), sortedQuantile(means, 0.975));
}

/** Linear interpolation between order statistics (R's type 7, numpy's default). */
function sortedQuantile(sorted: Float64Array, probability: number): number {
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const lowValue = sorted[below] ?? Number.NaN;
  const highValue = sorted[above] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (position - below);
}
