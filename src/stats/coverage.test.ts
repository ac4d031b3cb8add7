import { describe, expect, test } from 'vitest';
import { coverageByCell, formatCoverage, type NullRun, wilsonInterval } from './coverage.ts';

// Reference the long way: Wilson's bounds are the two proportions π for which the observed p̂ sits exactly z
// standard errors away, i.e. the roots of (p̂ − π)² = z²·π(1 − π)/n.
function naiveWilson(x: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = x / n;
  const a = 1 + (z * z) / n;
  const b = -(2 * p + (z * z) / n);
  const c = p * p;
  const root = Math.sqrt(Math.max(0, b * b - 4 * a * c));
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

describe('wilsonInterval', () => {
  test.for([
    [19, 20],
    [20, 20],
    [0, 5],
    [4, 6],
    [93, 100],
  ])('%i of %i matches the quadratic', ([x, n]) => {
    const [lo, hi] = wilsonInterval(x as number, n as number);
    const [wantLo, wantHi] = naiveWilson(x as number, n as number);
    expect(lo).toBeCloseTo(wantLo, 12);
    expect(hi).toBeCloseTo(wantHi, 12);
  });

  test('19 of 20 is about [76%, 99%]: twenty runs cannot tell 93% from 99%', () => {
    const [lo, hi] = wilsonInterval(19, 20);
    expect(lo).toBeCloseTo(0.7639, 4);
    expect(hi).toBeCloseTo(0.9911, 4);
  });

  test('names a bad count', () => {
    expect(() => wilsonInterval(3, 0)).toThrow('trials must be a positive integer, got 0');
    expect(() => wilsonInterval(7, 6)).toThrow('successes must be an integer from 0 to trials (6), got 7');
  });
});

describe('coverageByCell', () => {
  const run = (condition: string, design: string, lo: number, hi: number): NullRun => ({
    condition,
    design,
    ci95Pct: [lo, hi],
    estimatePct: (lo + hi) / 2,
  });
  const runs = [
    run('quiet', 'A/A', -1, 1),
    run('loaded', 'A/A', 0.5, 2.5),
    run('quiet', 'A/A', -2, 0),
    run('loaded', 'A/A', -3, 1),
    run('quiet', 'A/A', 0.2, 1.8),
  ];

  test('counts intervals containing 0 (bounds included) per condition and design, in first-seen order', () => {
    const cells = coverageByCell(runs);
    expect(cells.map((c) => [c.condition, c.containing, c.runs])).toEqual([
      ['quiet', 2, 3],
      ['loaded', 1, 2],
    ]);
    expect(cells[0]?.meanHalfWidthPp).toBeCloseTo(0.933, 3);
    expect(cells[0]?.fractionCi95).toEqual(wilsonInterval(2, 3));
  });

  test('prints one line per cell with the misses', () => {
    expect(formatCoverage(coverageByCell(runs))).toBe(
      [
        'quiet · A/A: 2 of 3 intervals contain 0 = 67% (95% [21%, 94%]), mean half-width 0.93 pp; missed: 1.0 [0.2, 1.8]',
        'loaded · A/A: 1 of 2 intervals contain 0 = 50% (95% [9%, 91%]), mean half-width 1.50 pp; missed: 1.5 [0.5, 2.5]',
      ].join('\n'),
    );
  });
});
