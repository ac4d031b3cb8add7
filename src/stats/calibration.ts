// A/A calibration: pairs run with the plugin off in both arms, so any "overhead" they show is noise.
//
// Noise floor: the overhead-side half-width of the 95% interval that a gate of `gatePairs` pairs would
// get on this machine, 100·(1 − exp(−t₀.₉₇₅·√(sd²/n + τ²))) with sd the per-pair spread of ln(A′/A) and τ the
// workload's run-to-run spread (paired-overhead.ts; 0 where it was not measured). We chose
// this over the plain per-pair standard deviation because it is in the unit a verdict reads: an
// estimate within it is indistinguishable from "no overhead" by a gate of that size. The per-pair
// spread, which is what the machine and workload own, is reported beside it as sdLogRatio.
//
// Minimum detectable overhead: the true overhead a gate of n pairs tells from zero with 80% power,
// (t₀.₉₇₅ + t₀.₈₀)·sd/√n on the log scale (degrees of freedom as below). "2 × half-width" would
// ask for about 97.5% power, needlessly strict for planning. Central t quantiles slightly understate the
// exact (noncentral t) distance for very few pairs. The same distance, on the log scale, separates a
// true overhead from a limit L; in percent it shrinks by about (1 − L/100).
//
// Both use the spread the gate's own interval uses: Yuen's trimmed mean (see trimmed-mean.ts), whose degrees
// of freedom are the kept pairs − 1, so a gate of n pairs gets t with n − 2⌊0.2n⌋ − 1 degrees of freedom.
import { overheadPctFromLogRatio, pairedOverhead } from './paired-overhead.ts';
import { tQuantile } from './student-t.ts';
import type { TpsPair } from './tps-pair.ts';
import { trimmedDegreesOfFreedom } from './trimmed-mean.ts';

export interface NoiseCalibration {
  pairCount: number;
  /** Per-pair spread of ln(A′/A), from the trimmed mean's standard error × √n: the noise this machine and workload produce. */
  sdLogRatio: number;
  /** The A/A "overhead" and its interval; an interval excluding 0 means the order of runs is biased. */
  biasPct: number;
  biasCi95: [lowerPct: number, upperPct: number];
  /** Number of pairs the floor and the detectable overhead below are for. */
  gatePairs: number;
  noiseFloorPct: number;
  minimumDetectablePct: number;
}

export interface CalibrationOptions {
  /** Pairs the real gate will measure; defaults to the number of A/A pairs. */
  gatePairs?: number;
  /** The workload's run-to-run spread (paired-overhead.ts), which every interval of a gate carries. */
  runToRunSdLog?: number;
}

/** Noise floor and minimum detectable overhead from pairs measured with the plugin off in both arms. */
export function calibrateNoise(
  aaPairs: readonly TpsPair[],
  options: CalibrationOptions = {},
): NoiseCalibration {
  const tau = options.runToRunSdLog ?? 0;
  const estimate = pairedOverhead(aaPairs, { runToRunSdLog: tau });
  if (estimate.ci95 === null) {
    throw new Error('A/A calibration needs at least 2 pairs to see any spread, got 1');
  }
  const { sdLogRatio } = estimate;
  const gatePairs = options.gatePairs ?? estimate.pairCount;
  return {
    pairCount: estimate.pairCount,
    sdLogRatio,
    biasPct: estimate.estimatePct,
    biasCi95: estimate.ci95,
    gatePairs,
    noiseFloorPct: noiseFloorPct(sdLogRatio, gatePairs, tau),
    minimumDetectablePct: minimumDetectableOverheadPct(sdLogRatio, gatePairs, 0.8, tau),
  };
}

/** Overhead-side half-width, in percent, of the 95% interval of a gate of `pairCount` pairs. */
export function noiseFloorPct(sdLogRatio: number, pairCount: number, runToRunSdLog = 0): number {
  assertSd(sdLogRatio);
  const halfWidthLog =
    tQuantile(0.975, trimmedDegreesOfFreedom(pairCount)) *
    Math.hypot(sdLogRatio / Math.sqrt(pairCount), runToRunSdLog);
  return overheadPctFromLogRatio(-halfWidthLog);
}

/** True overhead, in percent, that `pairCount` pairs tell from zero with probability `power`. */
export function minimumDetectableOverheadPct(
  sdLogRatio: number,
  pairCount: number,
  power = 0.8,
  runToRunSdLog = 0,
): number {
  assertSd(sdLogRatio);
  if (!(power > 0 && power < 1)) throw new Error(`power must be strictly between 0 and 1, got ${power}`);
  if (!Number.isInteger(pairCount) || pairCount < 2) {
    throw new Error(`pairCount must be an integer of at least 2, got ${pairCount}`);
  }
  const df = trimmedDegreesOfFreedom(pairCount);
  const quantiles = tQuantile(0.975, df) + tQuantile(power, df);
  return overheadPctFromLogRatio(-quantiles * Math.hypot(sdLogRatio / Math.sqrt(pairCount), runToRunSdLog));
}

/** Fewest pairs whose minimum detectable overhead is at most targetPct, or null if maxPairs are not enough. */
export function pairsForDetectableOverhead(
  sdLogRatio: number,
  targetPct: number,
  options: { power?: number; maxPairs?: number } = {},
): number | null {
  const { power = 0.8, maxPairs = 1_000 } = options;
  if (!(targetPct > 0 && targetPct < 100)) {
    throw new Error(`targetPct must be strictly between 0 and 100, got ${targetPct}`);
  }
  for (let pairCount = 2; pairCount <= maxPairs; pairCount++) {
    if (minimumDetectableOverheadPct(sdLogRatio, pairCount, power) <= targetPct) return pairCount;
  }
  return null;
}

function assertSd(sdLogRatio: number): void {
  if (!Number.isFinite(sdLogRatio) || sdLogRatio < 0) {
    throw new Error(`sdLogRatio must be a finite number of at least 0, got ${sdLogRatio}`);
  }
}
