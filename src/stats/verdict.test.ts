import { describe, expect, test } from 'vitest';
import { simulatePairs } from '../../test/support/simulation.ts';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import { decideVerdict, withinNoise } from './verdict.ts';

// Reference: the rule as a person would state it, checked against every interval shape.
function naiveVerdict(ci95: [number, number] | null, limitPct: number): string {
  if (ci95 === null) return 'inconclusive';
  if (ci95[1] <= limitPct) return 'pass';
  if (ci95[0] > limitPct) return 'fail';
  return 'inconclusive';
}

describe('decideVerdict', () => {
  test.for([
    {
      input: { estimatePct: 41.2, ci95: [38.9, 43.4] as [number, number], limitPct: 30 },
      verdict: 'fail',
      reason: 'overhead 41.2% (95% CI 38.9–43.4%) is above the 30% limit',
    },
    {
      input: { estimatePct: 12.04, ci95: [9.96, 14.1] as [number, number], limitPct: 50 },
      verdict: 'pass',
      reason: 'overhead 12.0% (95% CI 10.0–14.1%) is within the 50% limit',
    },
    {
      input: { estimatePct: 4.6, ci95: [3.1, 6.2] as [number, number], limitPct: 5 },
      verdict: 'inconclusive',
      reason: 'overhead 4.6% (95% CI 3.1–6.2%) straddles the 5% limit; add pairs to narrow the interval',
    },
    {
      input: { estimatePct: 0.4, ci95: [-1.2, 2] as [number, number], limitPct: 2.5, noiseFloorPct: 1.5 },
      verdict: 'pass',
      reason:
        'overhead 0.4% (95% CI -1.2% to 2.0%) is within the 2.5% limit; it is within the ±1.5% noise floor',
    },
    {
      input: { estimatePct: 5, ci95: [5, 5] as [number, number], limitPct: 5 },
      verdict: 'pass',
      reason: 'overhead 5.0% (95% CI 5.0–5.0%) is within the 5% limit',
    },
  ])('$verdict: $reason', ({ input, verdict, reason }) => {
    expect(decideVerdict(input)).toEqual({ verdict, reason });
  });

  test('a single pair is inconclusive and says to measure more', () => {
    const result = decideVerdict({ estimatePct: 3, ci95: null, limitPct: 50 });
    expect(result.verdict).toBe('inconclusive');
    expect(result.reason).toMatch(/single pair .* at least 2 pairs/);
  });

  test('a straddle below the noise floor says more pairs of this size will not decide', () => {
    const result = decideVerdict({ estimatePct: 4, ci95: [-3, 11], limitPct: 5, noiseFloorPct: 7 });
    expect(result.verdict).toBe('inconclusive');
    expect(result.reason).toMatch(/inside the ±7.0% noise floor/);
  });

  test('agrees with the naive rule on 500 simulated experiments of varied size and overhead', () => {
    const rng = createRng(99);
    for (let trial = 0; trial < 500; trial++) {
      const pairs = simulatePairs(
        { pairCount: 1 + rng.integer(10), trueOverheadPct: rng.uniform() * 60, runNoiseSd: 0.05 },
        rng,
      );
      const estimate = pairedOverhead(pairs);
      const limitPct = rng.uniform() * 60;
      expect(decideVerdict({ ...estimate, limitPct }).verdict).toBe(naiveVerdict(estimate.ci95, limitPct));
    }
  });

  test.for([
    {
      input: { estimatePct: 1, ci95: null, limitPct: 140 },
      message: 'limitPct must be at least 0 and below 100, got 140',
    },
    {
      input: { estimatePct: 1, ci95: null, limitPct: -1 },
      message: 'limitPct must be at least 0 and below 100, got -1',
    },
    {
      input: { estimatePct: Number.NaN, ci95: null, limitPct: 5 },
      message: 'estimatePct must be a finite number, got NaN',
    },
    { input: { estimatePct: 1, ci95: [3, 2] as [number, number], limitPct: 5 }, message: 'got [3, 2]' },
    {
      input: { estimatePct: 1, ci95: null, limitPct: 5, noiseFloorPct: -2 },
      message: 'noiseFloorPct must be',
    },
  ])('rejects bad input: $message', ({ input, message }) => {
    expect(() => decideVerdict(input)).toThrow(message);
  });
});

describe('withinNoise', () => {
  test.for([
    [1.9, 2, true],
    [-1.9, 2, true],
    [2, 2, true],
    [2.1, 2, false],
    [-2.1, 2, false],
    [0, 0, true],
  ] as const)('withinNoise(%s, %s) is %s', ([estimatePct, noiseFloorPct, expected]) => {
    expect(withinNoise(estimatePct, noiseFloorPct)).toBe(expected);
  });

  test('names a bad noise floor', () => {
    expect(() => withinNoise(1, Number.POSITIVE_INFINITY)).toThrow('noiseFloorPct must be a finite number');
  });
});
