import jStat from 'jstat';
import { describe, expect, test } from 'vitest';
import { createRng } from './random.ts';
import type { NonEmpty } from './tps-pair.ts';
import { trimmedCount, yuenTrimmedMean } from './trimmed-mean.ts';

// Reference written the long way, from the textbook definition (Wilcox 2012, §4.3 and §5.3): sort, cut g values
// off each end for the mean; pull them in to the nearest kept value for the winsorized variance.
function naiveYuen(values: number[], trim: number): { mean: number; se: number; df: number } {
  const n = values.length;
  const sorted = values.slice().sort((a, b) => a - b);
  const g = Math.floor(trim * n);
  let sum = 0;
  for (let i = g; i < n - g; i++) sum += sorted[i] as number;
  const h = n - 2 * g;
  const trimmed = sum / h;
  const w: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i < g) w.push(sorted[g] as number);
    else if (i >= n - g) w.push(sorted[n - g - 1] as number);
    else w.push(sorted[i] as number);
  }
  let wSum = 0;
  for (const v of w) wSum += v;
  const wMean = wSum / n;
  let ss = 0;
  for (const v of w) ss += (v - wMean) * (v - wMean);
  const winsorizedVariance = ss / (n - 1);
  return { mean: trimmed, se: Math.sqrt(((n - 1) * winsorizedVariance) / (h * (h - 1))), df: h - 1 };
}

describe('yuenTrimmedMean', () => {
  test.for([
    { name: 'clean values', values: [0.11, 0.09, 0.1, 0.12, 0.095, 0.105, 0.1, 0.098] },
    { name: 'two wrecked pairs', values: [0.1, 0.11, -0.3, 0.09, 0.105, 0.45, 0.1, 0.095, 0.1, 0.12] },
    { name: 'odd count with ties', values: [1, 1, 1, 2, 3, 3, 9, -4, 1, 1, 2] },
  ])('matches the textbook definition: $name', ({ values }) => {
    const got = yuenTrimmedMean(values as NonEmpty<number>, 0.2);
    const want = naiveYuen(values, 0.2);
    expect(got.mean).toBeCloseTo(want.mean, 12);
    expect(got.standardError).toBeCloseTo(want.se, 12);
    expect(got.degreesOfFreedom).toBe(want.df);
  });

  test('with nothing to trim it is the mean and s/√n', () => {
    const values: NonEmpty<number> = [3, 5, 4, 8];
    const got = yuenTrimmedMean(values, 0.2);
    expect(got.trimmedEachSide).toBe(0);
    expect(got.mean).toBeCloseTo(5, 12);
    expect(got.standardError).toBeCloseTo(jStat.stdev(values, true) / 2, 12);
    expect(got.degreesOfFreedom).toBe(3);
  });

  test('one wild value moves the plain mean, not the trimmed one', () => {
    const clean = [0.1, 0.11, 0.09, 0.1, 0.105, 0.095, 0.1, 0.1, 0.102, 0.098];
    const wrecked: NonEmpty<number> = [0.6, ...clean.slice(0, 9)];
    expect(Math.abs(yuenTrimmedMean(wrecked).mean - 0.1)).toBeLessThan(0.003);
    expect(Math.abs(yuenTrimmedMean(wrecked, 0).mean - 0.1)).toBeGreaterThan(0.04);
  });

  test('gives no standard error when fewer than two values are kept', () => {
    expect(yuenTrimmedMean([4]).standardError).toBeNull();
  });

  test('names a bad trim or a value that is not finite', () => {
    expect(() => yuenTrimmedMean([1, 2, 3], 0.5)).toThrow('trim must be at least 0 and below 0.5, got 0.5');
    expect(() => yuenTrimmedMean([1, Number.NEGATIVE_INFINITY, 3])).toThrow(
      'values[1] must be finite, got -Infinity',
    );
  });

  test('trims ⌊0.2·n⌋ from each end', () => {
    expect([4, 5, 9, 10, 24].map((n) => trimmedCount(n, 0.2))).toEqual([0, 1, 1, 2, 4]);
  });
});

// Synthetic pairs like this VM's: most log-ratios near the true value with sd 0.02, and a few pairs that straddle
// a step in the machine's speed and land 20–60% away on either side.
describe('coverage of the 95% interval when some pairs are wrecked', () => {
  const trials = 4_000;
  const truth = Math.log(0.9);
  function simulate(n: number, wreckedShare: number, seed: number) {
    const rng = createRng(seed);
    const runs: { trimmed: boolean; plain: boolean; trimmedWidth: number; plainWidth: number }[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const values = Array.from({ length: n }, () =>
        rng.uniform() < wreckedShare
          ? truth + (rng.uniform() < 0.5 ? -1 : 1) * (0.2 + 0.4 * rng.uniform())
          : rng.normal(truth, 0.02),
      ) as NonEmpty<number>;
      const one = (trim: number) => {
        const r = yuenTrimmedMean(values, trim);
        const half = jStat.studentt.inv(0.975, r.degreesOfFreedom) * (r.standardError ?? Number.NaN);
        return { covered: Math.abs(r.mean - truth) <= half, width: half };
      };
      const t = one(0.2);
      const p = one(0);
      runs.push({ trimmed: t.covered, plain: p.covered, trimmedWidth: t.width, plainWidth: p.width });
    }
    const share = (f: (r: (typeof runs)[number]) => boolean) => runs.filter(f).length / trials;
    const medianOf = (xs: number[]) => jStat.median(xs);
    return {
      trimmedCoverage: share((r) => r.trimmed),
      plainCoverage: share((r) => r.plain),
      trimmedWidth: medianOf(runs.map((r) => r.trimmedWidth)),
      plainWidth: medianOf(runs.map((r) => r.plainWidth)),
    };
  }

  test('clean data: both hold about 95%, trimming costs a little width', () => {
    const r = simulate(16, 0, 7);
    expect(r.trimmedCoverage).toBeGreaterThan(0.93);
    expect(r.plainCoverage).toBeGreaterThan(0.93);
    expect(r.trimmedWidth / r.plainWidth).toBeLessThan(1.25);
  });

  test('one pair in ten wrecked: trimming keeps the interval narrow and honest', () => {
    const r = simulate(16, 0.1, 11);
    expect(r.trimmedCoverage).toBeGreaterThan(0.93);
    expect(r.trimmedWidth).toBeLessThan(r.plainWidth / 3);
  });
});
