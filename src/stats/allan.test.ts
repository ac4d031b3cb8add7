import { describe, expect, test } from 'vitest';
import { allanCurve, allanDeviation, allanTerm, pooledDeviation } from './allan.ts';
import { createRng } from './random.ts';

// The definition written the long way: average each block of m samples, difference neighbouring blocks.
function naiveAllanDeviation(series: readonly number[], m: number): number | null {
  const differences: number[] = [];
  for (let j = 0; j + 2 * m <= series.length; j++) {
    let first = 0;
    let second = 0;
    for (let i = 0; i < m; i++) {
      first += series[j + i] ?? Number.NaN;
      second += series[j + m + i] ?? Number.NaN;
    }
    differences.push(second / m - first / m);
  }
  if (differences.length === 0) return null;
  let sum = 0;
  for (const d of differences) sum += d * d;
  return Math.sqrt(sum / (2 * differences.length));
}

const whiteNoise = (seed: number, n: number, sd: number) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.normal(0, sd));
};

const randomWalk = (seed: number, n: number, stepSd: number) => {
  const rng = createRng(seed);
  let level = 0;
  return Array.from({ length: n }, () => {
    level += rng.normal(0, stepSd);
    return level;
  });
};

describe('allanDeviation', () => {
  test.for([1, 2, 3, 4, 6, 8, 12])('matches the naive definition at m = %i', (m) => {
    const series = whiteNoise(7, 97, 0.03).map((x, i) => x + 0.001 * i);
    expect(allanDeviation(series, m)).toBeCloseTo(naiveAllanDeviation(series, m) ?? Number.NaN, 12);
  });

  test('a linear drift a·i gives a·m/√2 at every m (neighbouring averages differ by a·m)', () => {
    const series = Array.from({ length: 50 }, (_, i) => 0.5 * i);
    for (const m of [1, 3, 10]) expect(allanDeviation(series, m)).toBeCloseTo((0.5 * m) / Math.SQRT2, 12);
  });

  test('an alternating ±1 series gives √2 at m = 1 and 0 at m = 2', () => {
    const series = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(allanDeviation(series, 1)).toBeCloseTo(Math.SQRT2, 12);
    expect(allanDeviation(series, 2)).toBeCloseTo(0, 12);
  });

  test('a constant series has none; a series shorter than 2m has no value', () => {
    expect(allanDeviation([5, 5, 5, 5], 2)).toBe(0);
    expect(allanDeviation([1, 2, 3], 2)).toBeNull();
  });

  test('m must be a whole number of base intervals', () => {
    expect(() => allanTerm([1, 2, 3], 1.5)).toThrow(
      'The averaging length m must be a whole number ≥ 1, got 1.5',
    );
  });

  // E σ²(m) = s²/m: σ(τ) = s/√τ, the factor is exactly 1 with τ in base intervals. Pooled over 200 seeded series
  // of 240 samples (~48 000 terms at m = 1), the estimate lands within a few percent.
  test.for([1, 2, 4, 8, 12])('white noise of sd s gives s/√m at m = %i', (m) => {
    const s = 0.02;
    const parts = Array.from({ length: 200 }, (_, k) => allanTerm(whiteNoise(100 + k, 240, s), m));
    const expected = s / Math.sqrt(m);
    expect(Math.abs((pooledDeviation(parts) ?? 0) / expected - 1)).toBeLessThan(0.05);
  });

  // Random walk with step sd q: E σ²(m) = q²(2m² + 1)/(6m) (derivation in allan.ts), so σ grows as √m.
  test.for([1, 2, 4, 8, 12])('a random walk of step q gives q·√((2m² + 1)/(6m)) at m = %i', (m) => {
    const q = 0.01;
    const parts = Array.from({ length: 400 }, (_, k) => allanTerm(randomWalk(900 + k, 240, q), m));
    const expected = q * Math.sqrt((2 * m * m + 1) / (6 * m));
    expect(Math.abs((pooledDeviation(parts) ?? 0) / expected - 1)).toBeLessThan(0.08);
  });
});

describe('allanCurve', () => {
  test('pools runs by their number of terms and scales white noise from τ = 1', () => {
    const a = [0, 1, 0, 1, 0, 1];
    const b = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const [one, three] = allanCurve([a, b], [1, 3]);
    // a: 5 differences of ±1, b: 9 of 0, each contributing d²/2.
    expect(one?.deviation).toBeCloseTo(Math.sqrt(2.5 / 14), 12);
    expect(one?.terms).toBe(14);
    expect(three?.whiteNoise).toBeCloseTo(Math.sqrt(2.5 / 14) / Math.sqrt(3), 12);
    // At m = 3, a has 1 term, b has 5.
    expect(three?.terms).toBe(6);
  });

  test('a τ no run is long enough for has no deviation', () => {
    expect(allanCurve([[1, 2, 3]], [2])[0]?.deviation).toBeNull();
  });
});
