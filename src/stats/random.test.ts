import { describe, expect, test } from 'vitest';
import { createRng } from './random.ts';

describe('createRng', () => {
  test('repeats for a seed and differs between seeds', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, createRng(seed).uniform);
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  test('uniform stays in [0, 1) and integer in [0, max)', () => {
    const rng = createRng(3);
    const uniforms = Array.from({ length: 10_000 }, rng.uniform);
    const integers = Array.from({ length: 10_000 }, () => rng.integer(7));
    expect(uniforms.every((u) => u >= 0 && u < 1)).toBe(true);
    expect(new Set(integers)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  });

  test('normal draws have about the asked mean and sd', () => {
    const rng = createRng(11);
    const draws = Array.from({ length: 20_000 }, () => rng.normal(1_000, 40));
    let sum = 0;
    for (const x of draws) sum += x;
    const mean = sum / draws.length;
    let squares = 0;
    for (const x of draws) squares += (x - mean) ** 2;
    expect(mean).toBeCloseTo(1_000, 0);
    expect(Math.sqrt(squares / (draws.length - 1))).toBeGreaterThan(39);
    expect(Math.sqrt(squares / (draws.length - 1))).toBeLessThan(41);
  });
});
