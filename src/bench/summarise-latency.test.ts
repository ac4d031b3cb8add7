import { describe, expect, test } from 'vitest';
import type { LatencyHistogram } from '../stats/latency-histogram.ts';
import type { Block } from './blocks.ts';
import { summariseLatency } from './summarise-latency.ts';

const histogram = (first: number): LatencyHistogram =>
  new Map(Array.from({ length: 40 }, (_, i) => [first + i, 25]));
const block = (shifts: number[]): Block => ({
  pairs: [],
  runs: [],
  latency: {
    ok: true,
    pairs: shifts.map((k) => ({ off: histogram(100), on: histogram(100 + k) })),
    skippedPairs: 0,
  },
});

describe('summariseLatency', () => {
  test('pools every block’s pairs into one change', () => {
    const record = summariseLatency([block([1, 2]), block([1, 2])], null);
    expect(record.measured && record.pairs).toBe(4);
  });

  test.for([
    // Shifts of 2–3 buckets: p99 rises 19–30%, the interval roughly [17, 32]%.
    [10, true],
    [25, false],
    [null, false],
  ] as const)(
    'maxP99IncreasePct %s fails only when the interval is wholly above it: %s',
    ([limit, fails]) => {
      const record = summariseLatency([block([2, 3, 2, 3, 2, 3])], limit);
      expect(record.measured && record.p99LimitFailed).toBe(fails);
    },
  );

  test('a block that measured no latency beside one that did is named with its reason', () => {
    const missing: Block = { pairs: [], runs: [], latency: { ok: false, reason: 'malformed latency lines' } };
    const record = summariseLatency([block([2, 3, 2, 3]), missing], 10);
    expect(record.measured && record.pairs).toBe(4);
    expect(record.reason).toMatch(
      /^p99 rose by .*; block 2 of 2 measured no latency \(malformed latency lines\)$/,
    );
    expect(summariseLatency([block([2, 3, 2, 3])], 10).reason).not.toContain('block');
  });

  test('a block without latency is recorded with its reason, never thrown', () => {
    const missing: Block = { pairs: [], runs: [], latency: { ok: false, reason: 'no lines' } };
    expect(summariseLatency([missing], 10)).toEqual({ measured: false, reason: 'no lines' });
    expect(summariseLatency([{ pairs: [], runs: [] }], null).measured).toBe(false);
  });
});
