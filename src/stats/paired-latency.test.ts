import { describe, expect, test } from 'vitest';
import type { LatencyHistogram } from './latency-histogram.ts';
import type { LatencyPair } from './latency-segments.ts';
import { pairedLatencyChange } from './paired-latency.ts';
import { tQuantile } from './student-t.ts';
import type { NonEmpty } from './tps-pair.ts';

// A segment's histogram: 1000 transactions over 40 buckets from `first` on (10 ms and up), 25 in each.
const histogram = (first: number): LatencyHistogram =>
  new Map(Array.from({ length: 40 }, (_, i) => [first + i, 25]));

// The on arm is the off arm moved up `shift` buckets: every quantile is exactly 2^(shift/8) times the off one.
const pairs = (shifts: number[]) =>
  shifts.map((shift) => ({ off: histogram(106), on: histogram(106 + shift) })) as NonEmpty<LatencyPair>;

describe('pairedLatencyChange on a series with a known answer', () => {
  test('a shift of one bucket in every pair is a 9.05% rise of p95 and p99, with no spread', () => {
    const change = pairedLatencyChange(pairs([1, 1, 1, 1]));
    expect(change.p99.changePct).toBeCloseTo(100 * (2 ** (1 / 8) - 1), 9);
    expect(change.p95.changePct).toBeCloseTo(100 * (2 ** (1 / 8) - 1), 9);
    expect(change.p99.changeMs).toBeCloseTo(change.p99.offMs * (2 ** (1 / 8) - 1), 9);
    expect(change.p99.changeCi95Pct?.[0]).toBeCloseTo(change.p99.changePct, 9);
    expect(change.offTransactions).toBe(4000);
  });

  test('varying shifts give the t interval on the log-ratios, written out the long way', () => {
    const shifts = [0, 2, 1, 3];
    const change = pairedLatencyChange(pairs(shifts), { trim: 0 });
    const logs = shifts.map((k) => (k / 8) * Math.log(2));
    const mean = logs.reduce((a, b) => a + b) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
    const half = tQuantile(0.975, 3) * (sd / Math.sqrt(logs.length));
    const ci = change.p99.changeCi95Pct ?? [Number.NaN, Number.NaN];
    expect(change.p99.changePct).toBeCloseTo(100 * (Math.exp(mean) - 1), 9);
    expect(ci[0]).toBeCloseTo(100 * (Math.exp(mean - half) - 1), 9);
    expect(ci[1]).toBeCloseTo(100 * (Math.exp(mean + half) - 1), 9);
    expect(change.p99.changeCi95Ms?.[1]).toBeCloseTo(change.p99.offMs * (Math.exp(mean + half) - 1), 9);
  });

  test('no change (A/A) gives 0 and one pair gives no interval', () => {
    expect(pairedLatencyChange(pairs([0, 0, 0])).p99.changePct).toBe(0);
    expect(pairedLatencyChange(pairs([2])).p99.changeCi95Pct).toBeNull();
  });

  test('p99 is read from the tail: off p99 sits in the 40th bucket, above p95', () => {
    const change = pairedLatencyChange(pairs([0, 0]));
    expect(change.p99.offMs).toBeGreaterThan(change.p95.offMs);
  });
});
