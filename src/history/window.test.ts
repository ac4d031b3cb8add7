import { describe, expect, test } from 'vitest';
import { createRng } from '../stats/random.ts';
import { changeFromWindow, lastGoodFirstBad, pool } from './window.ts';

describe('pool', () => {
  test('one entry is itself', () => {
    expect(pool([{ value: 10, ci95: [8, 12] }])).toEqual({ value: 10, halfWidth: 2, scatterHalfWidth: 0 });
  });
  test('entries that agree pool to their mean, the interval from their own precision', () => {
    const p = pool([
      { value: 10, ci95: [8, 12] },
      { value: 10, ci95: [8, 12] },
    ]);
    expect(p.value).toBe(10);
    expect(p.halfWidth).toBeCloseTo(Math.sqrt(8) / 2, 9);
  });
  test('entries that scatter more than their intervals say widen it', () => {
    const p = pool(
      [10, 14, 6, 12, 8].map((value) => ({ value, ci95: [value - 1, value + 1] as [number, number] })),
    );
    expect(p.value).toBe(10);
    // sd √10, t(0.975, 4) = 2.776: the scatter's half-width of the mean is 2.776·√10/√5.
    expect(p.halfWidth).toBeCloseTo((2.776_445 * Math.sqrt(10)) / Math.sqrt(5), 3);
  });
});

describe('changeFromWindow', () => {
  test('one noisy entry in the window does not decide: a new entry like the rest is within 5 points', () => {
    const window = [10, 10.5, 9.5, 10, 18].map((value) => ({
      value,
      ci95: [value - 2, value + 2] as [number, number],
    }));
    const { changePp, ci95 } = changeFromWindow(window, { value: 10, ci95: [8, 12] });
    expect(changePp).toBeCloseTo(-1.6, 9);
    expect(ci95[1]).toBeLessThan(15);
    expect(ci95[0]).toBeLessThan(0);
  });
  // A naive reference: entries of a stable plugin on fresh runners (a runner effect of sd 2 points, each run's own
  // interval ±1.5): a new entry of the same plugin falls inside the change's interval at least 95% of the time.
  test('covers no change at least 95% of the time when runners scatter more than runs', () => {
    const rng = createRng(11);
    const entry = () => {
      const value = 10 + rng.normal(0, 2) + rng.normal(0, 1.5 / 1.96);
      return { value, ci95: [value - 1.5, value + 1.5] as [number, number] };
    };
    let covered = 0;
    for (let i = 0; i < 2_000; i++) {
      const { ci95 } = changeFromWindow(Array.from({ length: 5 }, entry), entry());
      if (ci95[0] <= 0 && 0 <= ci95[1]) covered++;
    }
    expect(covered / 2_000).toBeGreaterThanOrEqual(0.95);
  });
});

describe('lastGoodFirstBad', () => {
  const v = (e: number) => e;
  test.for([
    ['a rise at the newest entry', [10, 10, 10, 20], { lastGood: 10, firstBad: 20 }],
    ['a rise two entries ago that stayed', [10, 11, 10, 19, 20], { lastGood: 10, firstBad: 19 }],
    ['a first entry alone', [20], null],
  ] as const)('%s', ([, series, expected]) => {
    expect(lastGoodFirstBad([...series], v, 5)).toEqual(expected);
  });
  test('names the entries themselves, not their figures', () => {
    const series = [
      { c: 'a', x: 1 },
      { c: 'b', x: 9 },
    ];
    expect(lastGoodFirstBad(series, (e) => e.x, 1)).toEqual({ lastGood: series[0], firstBad: series[1] });
  });
});
