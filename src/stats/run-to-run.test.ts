import { describe, expect, test } from 'vitest';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import { estimateRunToRun, intervalWithTau, type RunOnLogScale, runOnLogScale } from './run-to-run.ts';
import type { NonEmpty, TpsPair } from './tps-pair.ts';

function pairs(count: number, seed: number, sd = 0.02): TpsPair[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => ({
    offTps: 1000,
    onTps: 1000 * Math.exp(rng.normal(-0.03, sd)),
  }));
}

describe('runOnLogScale', () => {
  test.for([
    [12, 0],
    [15, 0.009],
    [4, 0.02],
  ])('%i pairs with τ %f: the estimate and the within-run standard error come back', ([count, tau]) => {
    const measured = pairs(count as number, 7 + (count as number));
    const estimate = pairedOverhead(measured, { runToRunSdLog: tau as number });
    if (estimate.ci95 === null) throw new Error('no interval');
    const run = runOnLogScale(estimate.ci95, count as number, tau as number);
    expect(run.meanLog).toBeCloseTo(estimate.meanLogRatio, 10);
    expect(run.seLog).toBeCloseTo(estimate.sdLogRatio / Math.sqrt(count as number), 10);
    expect(run.degreesOfFreedom).toBe(estimate.degreesOfFreedom);
    // And back: the same τ gives the same interval.
    const again = intervalWithTau(run, tau as number);
    expect(again[0]).toBeCloseTo(estimate.ci95[0], 10);
    expect(again[1]).toBeCloseTo(estimate.ci95[1], 10);
  });

  test('names a bad interval or pair count', () => {
    expect(() => runOnLogScale([1, 2], 1)).toThrow('pairs must be an integer of at least 2, got 1');
    expect(() => runOnLogScale([3, 2], 8)).toThrow('ci95Pct must be a finite [lower, upper]');
  });
});

describe('estimateRunToRun', () => {
  test('finds a known τ in simulated runs: 4000 runs of SE 0.01 scattered by τ 0.02', () => {
    const rng = createRng(25);
    const runs = Array.from(
      { length: 4000 },
      (): RunOnLogScale => ({
        meanLog: rng.normal(0, Math.hypot(0.01, 0.02)),
        seLog: 0.01,
        degreesOfFreedom: 9,
      }),
    ) as NonEmpty<RunOnLogScale>;
    const estimate = estimateRunToRun(runs);
    expect(estimate.rmsWithin).toBeCloseTo(0.01, 10);
    expect(estimate.tau).toBeGreaterThan(0.019);
    expect(estimate.tau).toBeLessThan(0.021);
  });

  test('is 0 when the runs scatter no more than their own standard errors say', () => {
    const runs: NonEmpty<RunOnLogScale> = [
      { meanLog: 0.005, seLog: 0.01, degreesOfFreedom: 9 },
      { meanLog: -0.005, seLog: 0.01, degreesOfFreedom: 9 },
    ];
    expect(estimateRunToRun(runs)).toEqual({
      runs: 2,
      sdBetween: Math.sqrt(0.00005),
      rmsWithin: 0.01,
      tau: 0,
    });
  });

  test('needs two runs', () => {
    expect(() => estimateRunToRun([{ meanLog: 0, seLog: 0.01, degreesOfFreedom: 9 }])).toThrow(
      'estimating τ needs at least 2 runs, got 1',
    );
  });
});
