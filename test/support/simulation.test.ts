import { describe, expect, test } from 'vitest';
import { createRng } from '../../src/stats/random.ts';
import { simulatePairs } from './simulation.ts';

describe('simulatePairs', () => {
  test('the geometric-mean on/off ratio converges to 1 − the true overhead', () => {
    const pairs = simulatePairs({ pairCount: 20_000, trueOverheadPct: 25, runNoiseSd: 0.05 }, createRng(8));
    let sumLog = 0;
    for (const pair of pairs) sumLog += Math.log(pair.onTps / pair.offTps);
    expect(Math.exp(sumLog / pairs.length)).toBeCloseTo(0.75, 3);
  });

  test('repeats for a seed and rejects a pair count of 0', () => {
    const options = { pairCount: 3, trueOverheadPct: 10, runNoiseSd: 0.02 };
    expect(simulatePairs(options, createRng(1))).toEqual(simulatePairs(options, createRng(1)));
    expect(() => simulatePairs({ ...options, pairCount: 0 }, createRng(1))).toThrow(
      'pairCount must be a positive integer, got 0',
    );
  });
});
