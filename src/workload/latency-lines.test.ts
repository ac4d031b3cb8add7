import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { addInto, quantileMs, totalCount } from '../stats/latency-histogram.ts';
import { parseLatencyLines } from './latency-lines.ts';

// Recorded once: sysbench 1.0.20 running latency-wrapper.lua around fixtures/sysbench/latency-sleepy.lua
// (2 threads, 2 s, each event sleeps 1–3 ms), so the counts can be checked against sysbench's own report.
const recorded = readFileSync(
  new URL('../../fixtures/sysbench/run-latency-wrapper-sleepy.txt', import.meta.url),
  'utf8',
);

describe('parseLatencyLines on the recorded run', () => {
  const parsed = parseLatencyLines(recorded);
  if (!parsed.ok) throw new Error(parsed.reason);
  const pooled = parsed.slots.reduce((all, slot) => addInto(all, slot.counts), new Map<number, number>());

  test('counts every event sysbench counted, both threads merged per 200 ms slot, in time order', () => {
    expect(totalCount(pooled)).toBe(1909);
    expect(parsed.slots).toHaveLength(11);
    const starts = parsed.slots.map((slot) => slot.startMs);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts.every((ms, i) => i === 0 || ms - (starts[i - 1] ?? 0) === 200)).toBe(true);
  });

  test("the pooled p95 agrees with sysbench's own (3.02 ms) within its buckets' resolution", () => {
    expect(quantileMs(pooled, 0.95)).toBeGreaterThan(3.02 * 0.95);
    expect(quantileMs(pooled, 0.95)).toBeLessThan(3.02 * 1.05);
  });
});

describe('parseLatencyLines on what it cannot use', () => {
  test.for([
    ['a run without the wrapper', '[ 1s ] thds: 2 tps: 10.00\nGeneral statistics:\n', /no latency lines/],
    ['a line cut short', 'auditbench-latency 0 1796137478800 92:2 91', /not in the wrapper's format/],
  ] as const)('%s says why', ([, text, reason]) => {
    const parsed = parseLatencyLines(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  test('the same slot from two threads adds up', () => {
    const parsed = parseLatencyLines('auditbench-latency 0 1000 5:2 6:1\nauditbench-latency 1 1000 5:3\n');
    expect(parsed).toEqual({
      ok: true,
      slots: [
        {
          startMs: 1000,
          counts: new Map([
            [5, 5],
            [6, 1],
          ]),
        },
      ],
    });
  });
});
