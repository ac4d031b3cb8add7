// In-run toggle design: one long sysbench run while the plugin is switched on and off every few seconds.
// The report interval that contains a switch mixes both arms, so it is dropped; a plugin may also take a
// moment to settle (open its log, fill a buffer), so `settleIntervals` more can be dropped after it.
// Per-second TPS is autocorrelated, so each segment's intervals are averaged into one number and only
// adjacent segments are paired: neighbours share the data and the moment, so drift cancels within a pair.
import { mean, median } from './descriptive.ts';
import { type Arm, isNonEmpty, type NonEmpty, type TpsPair } from './tps-pair.ts';

/** One sysbench report line: TPS over the interval that ends `atS` seconds into the run. */
export interface TpsInterval {
  atS: number;
  tps: number;
}

/** From `atS` seconds into the run on, the plugin is in state `arm`. The first entry sets the initial arm. */
export interface ArmSwitch {
  atS: number;
  arm: Arm;
}

export interface SegmentOptions {
  /** sysbench --report-interval: each interval covers [atS − reportIntervalS, atS). */
  reportIntervalS?: number;
  /** Intervals dropped after the one containing a switch, while the new state settles. */
  settleIntervals?: number;
  /**
   * A switch acknowledged at most this long before a report boundary counts as made on it: the interval ending
   * there is the old arm's and the one starting there the new arm's, both kept. A design that times its switches
   * just ahead of sysbench's boundaries loses no second to them; what it mixes (the last few ms of the old arm's
   * second run under the new arm) pulls an estimate toward 0 by that fraction. 0 (the default): every interval a
   * switch touches is dropped.
   */
  switchToleranceS?: number;
  /**
   * How a segment's seconds become one number. The median shrugs off a one-second stall (a checkpoint, a
   * neighbour's burst on a shared machine) that would otherwise decide a pair; the mean uses every transaction.
   */
  center?: 'mean' | 'median';
}

export interface Segment {
  arm: Arm;
  fromS: number;
  /** The next switch, or the end of the last interval for the final segment. */
  toS: number;
  keptIntervals: number;
  /** Mean (or median, see SegmentOptions.center) TPS of the kept intervals; null when every interval was dropped. */
  meanTps: number | null;
}

export interface SegmentedRun {
  segments: Segment[];
  /** Adjacent off/on segments with kept intervals, ready for pairedOverhead. */
  pairs: TpsPair[];
  /** Intervals in no segment: containing a switch, settling, or before the first switch. */
  droppedIntervals: number;
}

/** Splits a toggled run into per-arm segments and pairs adjacent off/on segments. */
export function segmentToggledRun(
  intervals: readonly TpsInterval[],
  schedule: NonEmpty<ArmSwitch>,
  options: SegmentOptions = {},
): SegmentedRun {
  const summarise = options.center === 'median' ? median : mean;
  const spacing = spacingOf(options);
  validateSegmentInput(intervals, schedule, spacing);
  const switches = snapSwitches(schedule, spacing.reportIntervalS, spacing.switchToleranceS);
  const segments = switches.map((entry, index): Segment => {
    const toS = segmentEndS(intervals, switches, index);
    const kept = keptIntervals(intervals, entry, toS, spacing).map((iv) => iv.tps);
    return {
      arm: entry.arm,
      fromS: entry.atS,
      toS,
      keptIntervals: kept.length,
      meanTps: isNonEmpty(kept) ? summarise(kept) : null,
    };
  });
  const keptTotal = segments.reduce((sum, segment) => sum + segment.keptIntervals, 0);
  return { segments, pairs: pairAdjacentSegments(segments), droppedIntervals: intervals.length - keptTotal };
}

/** The options that place and trim segments, defaults filled in. */
type Spacing = Required<Pick<SegmentOptions, 'reportIntervalS' | 'settleIntervals' | 'switchToleranceS'>>;

const spacingOf = (options: SegmentOptions): Spacing => ({
  reportIntervalS: options.reportIntervalS ?? 1,
  settleIntervals: options.settleIntervals ?? 0,
  switchToleranceS: options.switchToleranceS ?? 0,
});

function segmentEndS(
  intervals: readonly TpsInterval[],
  schedule: NonEmpty<ArmSwitch>,
  index: number,
): number {
  const entry = schedule[index] ?? schedule[0];
  return schedule[index + 1]?.atS ?? Math.max(intervals.at(-1)?.atS ?? schedule[0].atS, entry.atS);
}

/** A switch as the segmenter places it: on a report boundary when it was made just ahead of one. */
interface PlacedSwitch extends ArmSwitch {
  onBoundary: boolean;
}

const BOUNDARY_EPS_S = 1e-9;

function snapSwitches(
  schedule: NonEmpty<ArmSwitch>,
  reportIntervalS: number,
  toleranceS: number,
): NonEmpty<PlacedSwitch> {
  const placed = schedule.map((entry, index): PlacedSwitch => {
    // The initial arm is set before sysbench starts; its first interval (threads ramping up) stays dropped.
    if (index === 0) return { ...entry, onBoundary: false };
    const boundary = Math.ceil(entry.atS / reportIntervalS - BOUNDARY_EPS_S) * reportIntervalS;
    return toleranceS > 0 && boundary - entry.atS <= toleranceS
      ? { atS: boundary, arm: entry.arm, onBoundary: true }
      : { ...entry, onBoundary: false };
  });
  return placed as NonEmpty<PlacedSwitch>;
}

function keptIntervals<T extends TpsInterval>(
  intervals: readonly T[],
  entry: ArmSwitch & { onBoundary?: boolean },
  toS: number,
  { reportIntervalS, settleIntervals }: Spacing,
): T[] {
  // Strictly after the switch: an interval starting exactly at it is the one the switch disturbed, unless the
  // switch was placed on that boundary (made just before it, within the tolerance).
  const startsAfter = (iv: T) =>
    entry.onBoundary
      ? iv.atS - reportIntervalS >= entry.atS - BOUNDARY_EPS_S
      : iv.atS - reportIntervalS > entry.atS;
  const inside = intervals.filter((iv) => startsAfter(iv) && iv.atS <= toS);
  return inside.slice(settleIntervals);
}

/**
 * The stretch of run time each segment's kept intervals cover, [fromS, toS] on sysbench's clock, or null when it
 * kept none: what segmentToggledRun averages TPS over, so another per-second source (latency) drops the same seconds.
 */
export function keptSpans(
  intervals: readonly TpsInterval[],
  schedule: NonEmpty<ArmSwitch>,
  options: Pick<SegmentOptions, 'reportIntervalS' | 'settleIntervals' | 'switchToleranceS'> = {},
): ({ fromS: number; toS: number } | null)[] {
  const spacing = spacingOf(options);
  validateSegmentInput(intervals, schedule, spacing);
  const switches = snapSwitches(schedule, spacing.reportIntervalS, spacing.switchToleranceS);
  return switches.map((entry, index) => {
    const kept = keptIntervals(intervals, entry, segmentEndS(intervals, switches, index), spacing);
    const first = kept[0];
    const last = kept.at(-1);
    return first && last ? { fromS: first.atS - spacing.reportIntervalS, toS: last.atS } : null;
  });
}

/** Pairs neighbours of opposite arms left to right (off,on | on,off | …); a segment without data (or stalled) pairs with none. */
export function pairAdjacentSegments(segments: readonly Segment[]): TpsPair[] {
  return pairedSegmentIndices(segments).map(
    ([first, second]) => toPair(segments[first], segments[second]) as TpsPair,
  );
}

/** Which segments pairAdjacentSegments pairs, as index pairs: another per-segment figure pairs the same ones. */
export function pairedSegmentIndices(segments: readonly Segment[]): [number, number][] {
  const indices: [number, number][] = [];
  let index = 0;
  while (index + 1 < segments.length) {
    const pair = toPair(segments[index], segments[index + 1]);
    if (pair !== null) indices.push([index, index + 1]);
    index += pair === null ? 1 : 2;
  }
  return indices;
}

/**
 * A segment whose centre is 0 TPS saw the server stall for most of it (this VM has frozen for 2 s with
 * nothing else running): it says nothing about the plugin, and a ratio against 0 is meaningless.
 */
function toPair(first: Segment | undefined, second: Segment | undefined): TpsPair | null {
  if (!first?.meanTps || !second?.meanTps || first.arm === second.arm) return null;
  return first.arm === 'off'
    ? { offTps: first.meanTps, onTps: second.meanTps }
    : { offTps: second.meanTps, onTps: first.meanTps };
}

function validateSegmentInput(
  intervals: readonly TpsInterval[],
  schedule: readonly ArmSwitch[],
  { reportIntervalS, settleIntervals, switchToleranceS }: Spacing,
): void {
  if (!(reportIntervalS > 0) || !Number.isFinite(reportIntervalS)) {
    throw new Error(`reportIntervalS must be a positive number of seconds, got ${reportIntervalS}`);
  }
  if (!(switchToleranceS >= 0) || switchToleranceS >= reportIntervalS / 2) {
    throw new Error(
      `switchToleranceS must be at least 0 and under half a report interval (${reportIntervalS / 2} s), got ${switchToleranceS}`,
    );
  }
  if (!Number.isInteger(settleIntervals) || settleIntervals < 0) {
    throw new Error(`settleIntervals must be a non-negative integer, got ${settleIntervals}`);
  }
  if (schedule.length === 0) throw new Error('schedule must hold at least the initial arm, got none');
  assertIncreasing(schedule, 'schedule');
  schedule.forEach((entry, index) => {
    if (entry.arm !== 'off' && entry.arm !== 'on') {
      throw new Error(`schedule[${index}].arm must be 'off' or 'on', got ${JSON.stringify(entry.arm)}`);
    }
  });
  assertIncreasing(intervals, 'intervals');
  intervals.forEach((iv, index) => {
    if (!Number.isFinite(iv.tps) || iv.tps < 0) {
      throw new Error(`intervals[${index}].tps must be a finite TPS of at least 0, got ${iv.tps}`);
    }
  });
}

function assertIncreasing(items: readonly { atS: number }[], field: string): void {
  items.forEach((item, index) => {
    const previous = items[index - 1];
    if (!Number.isFinite(item.atS)) throw new Error(`${field}[${index}].atS must be finite, got ${item.atS}`);
    if (previous !== undefined && item.atS <= previous.atS) {
      throw new Error(
        `${field}[${index}].atS must be later than ${field}[${index - 1}].atS (${previous.atS}), got ${item.atS}`,
      );
    }
  });
}
