// Replays recorded per-second TPS traces through the toggle design and the estimator, to measure the interval's
// coverage on this machine's real noise (its speed steps, stalls and neighbours) instead of on a model of it.
// Every window of a trace long enough for one block becomes one experiment: an ABBA schedule is laid over it,
// the plugin-on seconds are scaled by a known overhead, and the interval must contain that overhead.
import { abbaOrder } from './adaptive.ts';
import { pairedOverhead } from './paired-overhead.ts';
import { type ArmSwitch, segmentToggledRun, type TpsInterval } from './segments.ts';
import type { Arm, NonEmpty, TpsPair } from './tps-pair.ts';

export interface ReplayOptions {
  segmentS: number;
  pairs: number;
  /** The overhead imposed on plugin-on seconds; 0 replays a null control. */
  overheadPct: number;
  /** Seconds between window starts (1: every possible window). */
  strideS?: number;
  /**
   * Where a switch lands against its segment's boundary: today's switch is acknowledged a few ms after it (0.05);
   * a switch timed ahead of sysbench's boundaries lands just before it (negative).
   */
  switchOffsetS?: number;
  /** The segmenter's tolerance for a switch just before a boundary (segments.ts); 0 drops every switch's second. */
  switchToleranceS?: number;
  /** The workload's run-to-run spread the interval carries (paired-overhead.ts); 0 replays the within-run interval. */
  runToRunSdLog?: number;
  /** What the interval counts as one observation: each pair (the default), or each ABBA quad (abbaUnits). */
  unit?: 'pair' | 'abba';
}

/**
 * Neighbouring pairs two by two (off,on then on,off: one ABBA quad) as one pair of geometric means, so a drift that
 * is linear over the quad cancels inside it. The estimate is the pairs' own; the interval counts half as many,
 * less tied, observations. An odd last pair is left out.
 */
export function abbaUnits(pairs: readonly TpsPair[]): TpsPair[] {
  const units: TpsPair[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const first = pairs[i];
    const second = pairs[i + 1];
    if (!first || !second) break;
    units.push({
      offTps: Math.sqrt(first.offTps * second.offTps),
      onTps: Math.sqrt(first.onTps * second.onTps),
    });
  }
  return units;
}

export interface ReplayOutcome {
  windows: number;
  containing: number;
  /** Windows without an interval (too few pairs survived) are not counted in `windows`. */
  skipped: number;
  meanHalfWidthPp: number;
  /** The mean estimate: beside the imposed overhead, what the design's mixing (or anything else) pulls away. */
  meanEstimatePct: number;
}

/** The share of the second (fromS, toS] the plugin was on: a second a switch cuts runs partly under each arm. */
function onShare(schedule: readonly ArmSwitch[], fromS: number, toS: number): number {
  let on = 0;
  schedule.forEach((entry, index) => {
    if (entry.arm !== 'on') return;
    const endS = schedule[index + 1]?.atS ?? Number.POSITIVE_INFINITY;
    on += Math.max(0, Math.min(toS, endS) - Math.max(fromS, entry.atS));
  });
  return on / (toS - fromS);
}

/** One experiment: the window starting at `startS` of `tps`, in the given ABBA phase; its interval. */
export function replayWindow(
  tps: readonly number[],
  startS: number,
  phase: 0 | 1,
  options: ReplayOptions,
): [number, number] | null {
  return replayEstimate(tps, startS, phase, options)?.ci95 ?? null;
}

/** The same experiment's estimate and interval; null when too few pairs survived. */
function replayEstimate(
  tps: readonly number[],
  startS: number,
  phase: 0 | 1,
  options: ReplayOptions,
): { estimatePct: number; ci95: [number, number] } | null {
  const {
    segmentS,
    pairs,
    overheadPct,
    switchOffsetS = 0.05,
    switchToleranceS = 0,
    runToRunSdLog = 0,
    unit = 'pair',
  } = options;
  const order = abbaOrder(pairs).map((arm): Arm => (phase === 0 ? arm : arm === 'on' ? 'off' : 'on'));
  const schedule = order.map((arm, i) => ({ atS: i === 0 ? 0 : i * segmentS + switchOffsetS, arm }));
  const lengthS = order.length * segmentS;
  const factor = 1 - overheadPct / 100;
  const intervals: TpsInterval[] = [];
  for (let k = 1; k <= lengthS; k++) {
    const raw = tps[startS + k - 1] ?? 0;
    const share = onShare(schedule, k - 1, k);
    intervals.push({ atS: k, tps: raw * (1 - share + share * factor) });
  }
  const { pairs: measured } = segmentToggledRun(intervals, schedule as NonEmpty<ArmSwitch>, {
    center: 'median',
    switchToleranceS,
  });
  const observed = unit === 'abba' ? abbaUnits(measured) : measured;
  if (observed.length < 2) return null;
  const { estimatePct, ci95 } = pairedOverhead(observed, { runToRunSdLog });
  return ci95 ? { estimatePct, ci95 } : null;
}

/** Coverage of the interval over every window (and both ABBA phases) of every trace. */
export function replayCoverage(
  traces: readonly (readonly number[])[],
  options: ReplayOptions,
): ReplayOutcome {
  const lengthS = 2 * options.pairs * options.segmentS;
  const stride = options.strideS ?? 1;
  let windows = 0;
  let containing = 0;
  let skipped = 0;
  let halfWidthSum = 0;
  let estimateSum = 0;
  for (const tps of traces) {
    for (let start = 0; start + lengthS <= tps.length; start += stride) {
      for (const phase of [0, 1] as const) {
        const replayed = replayEstimate(tps, start, phase, options);
        if (!replayed) {
          skipped++;
          continue;
        }
        windows++;
        const { ci95: ci } = replayed;
        halfWidthSum += (ci[1] - ci[0]) / 2;
        estimateSum += replayed.estimatePct;
        if (ci[0] <= options.overheadPct && options.overheadPct <= ci[1]) containing++;
      }
    }
  }
  return {
    windows,
    containing,
    skipped,
    meanHalfWidthPp: windows > 0 ? halfWidthSum / windows : Number.NaN,
    meanEstimatePct: windows > 0 ? estimateSum / windows : Number.NaN,
  };
}
