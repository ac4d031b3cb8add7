import { describe, expect, test } from 'vitest';
import { bucketEdgesMs, bucketOf, type LatencyHistogram, quantileMs } from './latency-histogram.ts';

describe('buckets', () => {
  test.for([
    [0.0005, 0],
    [0.001, 0],
    [1, 79],
    [2.9, 92],
    [1000, 159],
  ] as const)('%f ms falls in bucket %i, inside its edges', ([ms, bucket]) => {
    expect(bucketOf(ms)).toBe(bucket);
    const [lower, upper] = bucketEdgesMs(bucket);
    if (ms > 0.001) expect(ms >= lower && ms < upper).toBe(true);
  });
});

/** The long way: every latency listed, sorted, the value at rank ⌈p·n⌉. */
function naiveQuantile(latenciesMs: number[], probability: number): number {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return sorted[Math.ceil(probability * sorted.length) - 1] ?? Number.NaN;
}

describe('quantileMs', () => {
  test('is within one bucket (9%) of the exact quantile of the latencies counted', () => {
    // 1000 latencies spread over 0.5–40 ms on a log scale, with a slow tail.
    const latencies = Array.from({ length: 1000 }, (_, i) => 0.5 * 80 ** (((i * 7919) % 1000) / 1000));
    const histogram: LatencyHistogram = new Map();
    for (const ms of latencies) histogram.set(bucketOf(ms), (histogram.get(bucketOf(ms)) ?? 0) + 1);
    for (const p of [0.5, 0.95, 0.99]) {
      const exact = naiveQuantile(latencies, p);
      expect(Math.abs(Math.log((quantileMs(histogram, p) ?? 0) / exact))).toBeLessThan(Math.log(2) / 8);
    }
  });

  test('interpolates on the log scale inside the bucket that holds the rank', () => {
    const [lower, upper] = bucketEdgesMs(80);
    expect(quantileMs(new Map([[80, 100]]), 0.5)).toBeCloseTo(Math.sqrt(lower * upper), 12);
  });

  test('an empty histogram has no quantile, and a probability outside (0, 1) is refused', () => {
    expect(quantileMs(new Map(), 0.99)).toBeNull();
    expect(() => quantileMs(new Map([[1, 1]]), 99)).toThrow('probability must be between 0 and 1');
  });
});
