import { describe, expect, test } from 'vitest';
import { tQuantile } from './student-t.ts';

describe('tQuantile', () => {
  // Textbook two-sided 95% critical values, t₀.₉₇₅ with df degrees of freedom.
  test.for([
    [1, 12.706],
    [2, 4.303],
    [4, 2.776],
    [7, 2.365],
    [10, 2.228],
    [30, 2.042],
    [1_000, 1.962],
  ] as const)('t(0.975, %i) ≈ %f', ([df, expected]) => {
    expect(tQuantile(0.975, df)).toBeCloseTo(expected, 3);
  });

  test('is symmetric around 0.5', () => {
    expect(tQuantile(0.2, 6)).toBeCloseTo(-tQuantile(0.8, 6), 10);
    expect(tQuantile(0.5, 6)).toBeCloseTo(0, 10);
  });

  test.for([
    [0, 5, 'probability must be strictly between 0 and 1, got 0'],
    [1.2, 5, 'probability must be strictly between 0 and 1, got 1.2'],
    [0.9, 0, 'degreesOfFreedom must be a positive finite number, got 0'],
  ] as const)('tQuantile(%s, %s) throws', ([probability, df, message]) => {
    expect(() => tQuantile(probability, df)).toThrow(message);
  });
});
