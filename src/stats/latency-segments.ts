// Latency per arm segment: the Lua wrapper's slots (wall clock) are placed on sysbench's clock through the moment
// its threads started, and a slot counts for a segment only when it lies wholly inside the seconds that segment
// kept for TPS (keptSpans), so the switch seconds TPS drops are dropped here too. A segment's slots are pooled
// into one histogram before any quantile is read: at 1 thread a 3 s segment holds a few hundred transactions, and
// a p99 of one second's 250 would rest on two or three of them.
import { addInto, type LatencyHistogram, type LatencySlot, totalCount } from './latency-histogram.ts';
import { pairedSegmentIndices, type Segment } from './segments.ts';

/** Off and on histograms of one pair of segments, the same pair TPS uses. */
export interface LatencyPair {
  off: LatencyHistogram;
  on: LatencyHistogram;
}

/** Fewer pooled transactions than this leave a segment's p99 resting on one or two of them: the pair is skipped. */
export const MIN_SEGMENT_TRANSACTIONS = 200;

export interface SlotClock {
  /** When sysbench's threads started, in ms since the epoch: 0 s on the schedule's and the intervals' clock. */
  startedAtMs: number;
  slotMs: number;
}

/** Each segment's pooled histogram (empty where it kept no seconds). */
export function poolBySegment(
  slots: readonly LatencySlot[],
  spans: readonly ({ fromS: number; toS: number } | null)[],
  clock: SlotClock,
): LatencyHistogram[] {
  return spans.map((span) => {
    const pooled: LatencyHistogram = new Map();
    if (span === null) return pooled;
    for (const slot of slots) {
      const fromS = (slot.startMs - clock.startedAtMs) / 1000;
      const toS = fromS + clock.slotMs / 1000;
      if (fromS >= span.fromS && toS <= span.toS) addInto(pooled, slot.counts);
    }
    return pooled;
  });
}

/** The latency pairs of the segments TPS paired, leaving out pairs where either side pooled too few transactions. */
export function latencyPairs(
  segments: readonly Segment[],
  pooled: readonly LatencyHistogram[],
  minTransactions = MIN_SEGMENT_TRANSACTIONS,
): { pairs: LatencyPair[]; skipped: number } {
  const pairs: LatencyPair[] = [];
  let skipped = 0;
  for (const [first, second] of pairedSegmentIndices(segments)) {
    const a = pooled[first];
    const b = pooled[second];
    if (!a || !b || totalCount(a) < minTransactions || totalCount(b) < minTransactions) {
      skipped += 1;
      continue;
    }
    pairs.push(segments[first]?.arm === 'off' ? { off: a, on: b } : { off: b, on: a });
  }
  return { pairs, skipped };
}
