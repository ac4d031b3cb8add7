import { describe, expect, test } from 'vitest';
import { mean, sampleSd } from './descriptive.ts';
import { isNonEmpty, logRatios } from './tps-pair.ts';

describe('mean and sampleSd', () => {
  test.for([
    { values: [2, 4, 4, 4, 5, 5, 7, 9] as [number, ...number[]], mean: 5, sd: Math.sqrt(32 / 7) },
    { values: [-1, 1] as [number, ...number[]], mean: 0, sd: Math.SQRT2 },
  ])('of $values', ({ values, mean: expectedMean, sd }) => {
    expect(mean(values)).toBeCloseTo(expectedMean, 12);
    expect(sampleSd(values)).toBeCloseTo(sd, 12);
  });

  test('a single value has a mean but no sd', () => {
    expect(mean([3])).toBe(3);
    expect(sampleSd([3])).toBeNull();
  });
});

describe('logRatios', () => {
  test('is ln(on/off) per pair', () => {
    expect(logRatios([{ offTps: 100, onTps: 50 }])).toEqual([Math.log(0.5)]);
  });

  test('names the first bad TPS and says what to check', () => {
    expect(() => logRatios([{ offTps: 100, onTps: Number.POSITIVE_INFINITY }])).toThrow(
      'pairs[0].onTps must be a positive finite TPS, got Infinity: a run without throughput failed',
    );
  });

  test('isNonEmpty narrows', () => {
    expect(isNonEmpty([])).toBe(false);
    expect(isNonEmpty([1])).toBe(true);
  });
});
