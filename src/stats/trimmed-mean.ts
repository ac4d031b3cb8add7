// Yuen's trimmed mean and its standard error (Yuen 1974; Wilcox, "Introduction to Robust Estimation").
//
// Why: this machine is a VM whose neighbours change how fast memory-bound code runs, in steps of 20–60%
// that last from seconds to minutes (a memory-bound loop here dropped 25% at once with nothing else running
// in the guest). A pair of segments that straddles such a step reports an "overhead" of ±20–60% that has
// nothing to do with the plugin, and one such pair can widen a t interval tenfold. The trimmed mean drops the
// lowest and highest `trim` share of the values; its standard error comes from the winsorized variance (the
// trimmed values replaced by the nearest kept ones), with h − 1 degrees of freedom for h kept values. On clean
// normal data it loses little against the plain mean; with up to `trim` of the values wrecked on either side it
// keeps its coverage where the t interval does not (see trimmed-mean.test.ts).
import type { NonEmpty } from './tps-pair.ts';

/** Share trimmed from each end: 20% is the usual compromise between robustness and efficiency. */
export const DEFAULT_TRIM = 0.2;

export interface TrimmedMean {
  /** Mean of the values left after trimming. */
  mean: number;
  /** Standard error of that mean; null when fewer than 2 values are kept, which gives no spread. */
  standardError: number | null;
  /** Degrees of freedom for the t quantile: kept values − 1. */
  degreesOfFreedom: number;
  /** Values dropped from each end. */
  trimmedEachSide: number;
  kept: number;
}

/** Values trimmed from each end of `count` values: ⌊trim·count⌋, as Yuen defines it. */
export function trimmedCount(count: number, trim: number): number {
  if (!(trim >= 0 && trim < 0.5)) throw new Error(`trim must be at least 0 and below 0.5, got ${trim}`);
  return Math.floor(trim * count);
}

/** Degrees of freedom of the trimmed interval for `count` values: the values kept after trimming, − 1. */
export function trimmedDegreesOfFreedom(count: number, trim = DEFAULT_TRIM): number {
  if (!Number.isInteger(count) || count < 2) {
    throw new Error(`count must be an integer of at least 2, got ${count}`);
  }
  return count - 2 * trimmedCount(count, trim) - 1;
}

/** Yuen's trimmed mean of `values` and its standard error; trim 0 gives the plain mean and its standard error. */
export function yuenTrimmedMean(values: NonEmpty<number>, trim = DEFAULT_TRIM): TrimmedMean {
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) throw new Error(`values[${index}] must be finite, got ${value}`);
  });
  const n = values.length;
  const g = trimmedCount(n, trim);
  const sorted = [...values].sort((a, b) => a - b);
  const keptValues = sorted.slice(g, n - g);
  const kept = keptValues.length;
  const trimmedMeanValue = keptValues.reduce((sum, v) => sum + v, 0) / kept;
  if (kept < 2) {
    return { mean: trimmedMeanValue, standardError: null, degreesOfFreedom: 0, trimmedEachSide: g, kept };
  }
  const low = sorted[g] as number;
  const high = sorted[n - g - 1] as number;
  const winsorized = sorted.map((v) => Math.min(Math.max(v, low), high));
  const winsorizedMean = winsorized.reduce((sum, v) => sum + v, 0) / n;
  const winsorizedSsd = winsorized.reduce((sum, v) => sum + (v - winsorizedMean) ** 2, 0);
  // Yuen: SE² = SSD_w / (h (h − 1)), which for g = 0 is the usual s²/n.
  const standardError = Math.sqrt(winsorizedSsd / (kept * (kept - 1)));
  return {
    mean: trimmedMeanValue,
    standardError,
    degreesOfFreedom: trimmedDegreesOfFreedom(n, trim),
    trimmedEachSide: g,
    kept,
  };
}
