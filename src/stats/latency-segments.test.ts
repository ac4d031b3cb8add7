import { describe, expect, test } from 'vitest';
import type { LatencyHistogram, LatencySlot } from './latency-histogram.ts';
import { latencyPairs, poolBySegment } from './latency-segments.ts';
import { keptSpans, segmentToggledRun } from './segments.ts';

const T0 = 1_796_137_000_000;
// 12 s of sysbench, switched every 3 s (off, on, on, off); each switch lands inside a second that TPS drops.
const intervals = Array.from({ length: 12 }, (_, i) => ({ atS: i + 1, tps: 100 }));
const schedule: [{ atS: number; arm: 'off' | 'on' }, ...{ atS: number; arm: 'off' | 'on' }[]] = [
  { atS: 0, arm: 'off' },
  { atS: 3.02, arm: 'on' },
  { atS: 6.01, arm: 'on' },
  { atS: 9.03, arm: 'off' },
];
// One 200 ms slot every 200 ms, each holding 50 transactions in a bucket that says which second it came from.
const slots: LatencySlot[] = Array.from({ length: 60 }, (_, i) => ({
  startMs: T0 + 100 + 200 * i,
  counts: new Map([[Math.floor((100 + 200 * i) / 1000), 50]]),
}));

describe('poolBySegment', () => {
  const spans = keptSpans(intervals, schedule);
  const pooled = poolBySegment(slots, spans, { startedAtMs: T0, slotMs: 200 });

  test('keeps the seconds TPS keeps: whole seconds after the switch second (the first one too), up to the next switch', () => {
    expect(spans).toEqual([
      { fromS: 1, toS: 3 },
      { fromS: 4, toS: 6 },
      { fromS: 7, toS: 9 },
      { fromS: 10, toS: 12 },
    ]);
  });

  test('pools only slots wholly inside a span, so a slot across a dropped second is left out', () => {
    // Segment 2 keeps [4 s, 6 s]: slots starting at 4.1 … 5.7 s (second 4 and 5), not the one straddling 6 s.
    expect(pooled[1]).toEqual(
      new Map([
        [4, 250],
        [5, 200],
      ]),
    );
    expect([...(pooled[0]?.keys() ?? [])]).toEqual([1, 2]);
  });

  test('pairs the segments TPS pairs, and skips a pair whose segments pooled too few transactions', () => {
    const segmented = segmentToggledRun(intervals, schedule);
    expect(latencyPairs(segmented.segments, pooled).pairs).toHaveLength(2);
    const few = latencyPairs(segmented.segments, pooled, 600);
    expect(few).toEqual({ pairs: [], skipped: 2 });
  });

  test('an off segment after an on one is still the off side of its pair', () => {
    const segmented = segmentToggledRun(intervals, schedule);
    const second = latencyPairs(segmented.segments, pooled).pairs[1] as { off: LatencyHistogram };
    expect([...second.off.keys()]).toEqual([10, 11]);
  });
});
