// Default method: a t interval on paired log-ratios ln(on/off), back-transformed to an overhead.
// - Ratios are scale-free: a pair measured while the machine ran 5% slow still says "on is 10% slower".
// - The log makes ratios symmetric (on/off = 0.5 and 2 sit at ±ln 2) and roughly normal, which the t
//   interval assumes; means of raw per-pair percentages are skewed and biased for large overheads.
// - Pairs share data and sit next to each other in time, so slow drift (cache warm-up, background load,
//   thermal) cancels inside each pair instead of widening the interval.
// The bootstrap below makes no normality assumption, but its percentile interval under-covers with the
// handful of pairs a benchmark can afford (simulated: 75% at 3 pairs, 82% at 5, 90% at 8, 94% at 20,
// where t holds 95%), so it is offered only as a cross-check.
//
// The mean of the log-ratios is Yuen's 20% trimmed mean (see trimmed-mean.ts): a pair straddling one of this
// VM's steps in memory speed says ±20–60% whatever the plugin does, and trimming keeps such pairs from
// deciding the interval. Below 5 pairs nothing is trimmed and this is the plain t interval.
//
// Run to run: the pairs of one run share whatever that run's minutes were like, so repeated null controls on
// this VM scatter more than each run's own interval says (bench:coverage measured it: docs/measurements/
// 2026-12-01-coverage-smoke.md). `runToRunSdLog` is that extra spread on the log scale, added to the
// standard error's square (a random-effects interval: √(SE² + τ²)); it does not shrink with more pairs.
import { createRng } from './random.ts';
import { tQuantile } from './student-t.ts';
import { logRatios, type NonEmpty, type TpsPair } from './tps-pair.ts';
import { DEFAULT_TRIM, yuenTrimmedMean } from './trimmed-mean.ts';

/** A 95% interval for the overhead, in percent: [lowerPct, upperPct]. */
export type Ci95Pct = [lowerPct: number, upperPct: number];

/** Half an interval's width, in its own units (pp for a Ci95Pct). */
export const halfWidth = (ci: readonly [number, number]): number => (ci[1] - ci[0]) / 2;

interface EstimateCore {
  method: 't-log-ratio' | 'trimmed-t-log-ratio';
  pairCount: number;
  /** Pairs left out of the mean at each end (20% each by default); 0 below 5 pairs. */
  trimmedEachSide: number;
  /** 100·(1 − on/off) for each pair, in input order. */
  perPairOverheadPct: NonEmpty<number>;
  /** 100·(1 − exp(trimmed mean ln(on/off))): the overhead of the (trimmed) geometric-mean ratio. */
  estimatePct: number;
  meanLogRatio: number;
}

export type OverheadEstimate = EstimateCore &
  (
    | { sdLogRatio: number; ci95: Ci95Pct; degreesOfFreedom: number }
    | { sdLogRatio: null; ci95: null; degreesOfFreedom: null; noIntervalReason: string }
  );

/** Overhead in percent for a log-ratio ln(on/off): 0 means no cost, 10 means on runs 10% slower. */
export function overheadPctFromLogRatio(logRatio: number): number {
  return 100 * (1 - Math.exp(logRatio));
}

/** Turns an interval on ln(on/off) into an overhead interval; the order flips, a higher ratio is less overhead. */
export function ci95FromLogBounds(lowerLog: number, upperLog: number): Ci95Pct {
  return [overheadPctFromLogRatio(upperLog), overheadPctFromLogRatio(lowerLog)];
}

/**
 * Estimates the overhead from interleaved off/on pairs, with a 95% interval once there are 2+ pairs. `trim` is
 * the share of pairs left out at each end (Yuen); 0 gives the plain t interval on the mean log-ratio.
 */
export function pairedOverhead(
  pairs: readonly TpsPair[],
  options: { trim?: number; runToRunSdLog?: number } = {},
): OverheadEstimate {
  const trim = options.trim ?? DEFAULT_TRIM;
  const tau = options.runToRunSdLog ?? 0;
  if (!(Number.isFinite(tau) && tau >= 0)) throw new Error(`runToRunSdLog must be at least 0, got ${tau}`);
  const ratios = logRatios(pairs);
  const centre = yuenTrimmedMean(ratios, trim);
  const core: EstimateCore = {
    method: centre.trimmedEachSide > 0 ? 'trimmed-t-log-ratio' : 't-log-ratio',
    pairCount: ratios.length,
    trimmedEachSide: centre.trimmedEachSide,
    perPairOverheadPct: ratios.map(overheadPctFromLogRatio) as NonEmpty<number>,
    estimatePct: overheadPctFromLogRatio(centre.mean),
    meanLogRatio: centre.mean,
  };
  if (centre.standardError === null) {
    return {
      ...core,
      sdLogRatio: null,
      ci95: null,
      degreesOfFreedom: null,
      noIntervalReason: 'one pair gives no spread, so no interval: measure at least 2 pairs',
    };
  }
  const halfWidthLog = tQuantile(0.975, centre.degreesOfFreedom) * Math.hypot(centre.standardError, tau);
  const ci95 = ci95FromLogBounds(centre.mean - halfWidthLog, centre.mean + halfWidthLog);
  // The per-pair spread that gives the within-run standard error: the plain sd when nothing is trimmed.
  const sdLogRatio = centre.standardError * Math.sqrt(ratios.length);
  return { ...core, sdLogRatio, ci95, degreesOfFreedom: centre.degreesOfFreedom };
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
