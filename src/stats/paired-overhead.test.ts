import jStat from 'jstat';
import { describe, expect, test } from 'vitest';
import { simulatePairs } from '../../test/support/simulation.ts';
import { bootstrapOverheadCi95, pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import type { TpsPair } from './tps-pair.ts';

// Reference written the long way: loops, textbook formulas, nothing shared with the code under test.
function naiveTInterval(pairs: TpsPair[]): { estimatePct: number; lowerPct: number; upperPct: number } {
  const n = pairs.length;
  const logs: number[] = [];
  for (const pair of pairs) logs.push(Math.log(pair.onTps / pair.offTps));
  let sum = 0;
  for (const value of logs) sum += value;
  const meanLog = sum / n;
  let squares = 0;
  for (const value of logs) squares += (value - meanLog) * (value - meanLog);
  const se = Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
  const t = jStat.studentt.inv(0.975, n - 1);
  return {
    estimatePct: 100 * (1 - Math.exp(meanLog)),
    lowerPct: 100 * (1 - Math.exp(meanLog + t * se)),
    upperPct: 100 * (1 - Math.exp(meanLog - t * se)),
  };
}

function coverage(
  trials: number,
  interval: (pairs: TpsPair[], trial: number) => [number, number] | null,
): number {
  const rng = createRng(20_240_611);
  let covered = 0;
  for (let trial = 0; trial < trials; trial++) {
    const pairs = simulatePairs({ pairCount: 8, trueOverheadPct: 10, runNoiseSd: 0.03 }, rng);
    const ci = interval(pairs, trial);
    if (ci !== null && ci[0] <= 10 && 10 <= ci[1]) covered++;
  }
  return covered / trials;
}

describe('pairedOverhead', () => {
  test.for([
    {
      name: 'two pairs',
      pairs: [
        { offTps: 1000, onTps: 900 },
        { offTps: 980, onTps: 870 },
      ],
    },
    {
      name: 'five noisy pairs',
      pairs: [
        { offTps: 1012, onTps: 601 },
        { offTps: 987, onTps: 577 },
        { offTps: 1040, onTps: 622 },
        { offTps: 955, onTps: 590 },
        { offTps: 1003, onTps: 584 },
      ],
    },
    {
      name: 'on faster than off',
      pairs: [
        { offTps: 500, onTps: 510 },
        { offTps: 505, onTps: 507 },
        { offTps: 498, onTps: 512 },
      ],
    },
  ])('with trim 0, matches the naive t interval: $name', ({ pairs }) => {
    const estimate = pairedOverhead(pairs, { trim: 0 });
    const naive = naiveTInterval(pairs);
    expect(estimate.estimatePct).toBeCloseTo(naive.estimatePct, 10);
    expect(estimate.ci95?.[0]).toBeCloseTo(naive.lowerPct, 10);
    expect(estimate.ci95?.[1]).toBeCloseTo(naive.upperPct, 10);
    expect(estimate.ci95?.[0]).toBeLessThanOrEqual(estimate.estimatePct);
  });

  test('by default trims 20% of the pairs at each end and takes the interval from the kept ones', () => {
    // Eight pairs near 10%, one wrecked each way by a step in the machine's speed.
    const ratios = [0.9, 0.91, 0.89, 0.9, 0.905, 0.895, 0.55, 1.3];
    const pairs = ratios.map((r) => ({ offTps: 1000, onTps: 1000 * r }));
    const estimate = pairedOverhead(pairs);
    expect(estimate.method).toBe('trimmed-t-log-ratio');
    expect(estimate.trimmedEachSide).toBe(1);
    expect(estimate.degreesOfFreedom).toBe(5);
    expect(estimate.estimatePct).toBeCloseTo(10, 0);
    const plain = pairedOverhead(pairs, { trim: 0 });
    expect(plain.method).toBe('t-log-ratio');
    const width = (ci: [number, number] | null) => (ci ? ci[1] - ci[0] : Number.NaN);
    expect(width(estimate.ci95)).toBeLessThan(width(plain.ci95) / 4);
  });

  test('reports per-pair overheads in input order', () => {
    const estimate = pairedOverhead([
      { offTps: 1000, onTps: 900 },
      { offTps: 800, onTps: 600 },
    ]);
    expect(estimate.perPairOverheadPct[0]).toBeCloseTo(10, 10);
    expect(estimate.perPairOverheadPct[1]).toBeCloseTo(25, 10);
  });

  test('one pair gives an estimate but no interval, and says why', () => {
    const estimate = pairedOverhead([{ offTps: 1000, onTps: 600 }]);
    expect(estimate.estimatePct).toBeCloseTo(40, 10);
    expect(estimate.ci95).toBeNull();
    expect(estimate.ci95 === null && estimate.noIntervalReason).toMatch(/at least 2 pairs/);
  });

  test('identical pairs give a zero-width interval at the estimate', () => {
    const estimate = pairedOverhead([
      { offTps: 100, onTps: 50 },
      { offTps: 200, onTps: 100 },
    ]);
    expect(estimate.ci95?.[0]).toBeCloseTo(50, 10);
    expect(estimate.ci95?.[1]).toBeCloseTo(50, 10);
  });

  test.for([
    { pairs: [{ offTps: 1000, onTps: 0 }], message: 'pairs[0].onTps must be a positive finite TPS, got 0' },
    {
      pairs: [
        { offTps: 1, onTps: 1 },
        { offTps: -5, onTps: 1 },
      ],
      message: 'pairs[1].offTps must be a positive finite TPS, got -5',
    },
    {
      pairs: [{ offTps: Number.NaN, onTps: 1 }],
      message: 'pairs[0].offTps must be a positive finite TPS, got NaN',
    },
    { pairs: [], message: 'pairs must hold at least one' },
  ])('rejects $message', ({ pairs, message }) => {
    expect(() => pairedOverhead(pairs)).toThrow(message);
  });

  test('the 95% interval covers a known 10% overhead in roughly 95% of 200 simulated experiments', () => {
    const observed = coverage(200, (pairs) => pairedOverhead(pairs).ci95);
    expect(observed).toBeGreaterThanOrEqual(0.9);
    expect(observed).toBeLessThanOrEqual(0.99);
  });
});

describe('bootstrapOverheadCi95', () => {
  const pairs = [
    { offTps: 1012, onTps: 901 },
    { offTps: 987, onTps: 893 },
    { offTps: 1040, onTps: 930 },
    { offTps: 955, onTps: 871 },
    { offTps: 1003, onTps: 884 },
  ];

  test('is deterministic for a seed and brackets the point estimate', () => {
    const first = bootstrapOverheadCi95(pairs, { seed: 7 });
    expect(bootstrapOverheadCi95(pairs, { seed: 7 })).toEqual(first);
    const estimatePct = pairedOverhead(pairs).estimatePct;
    expect(first?.[0]).toBeLessThan(estimatePct);
    expect(first?.[1]).toBeGreaterThan(estimatePct);
  });

  test('is narrower than the t interval with few pairs, which is why t is the default', () => {
    const boot = bootstrapOverheadCi95(pairs, { seed: 7 });
    const t = pairedOverhead(pairs, { trim: 0 }).ci95;
    expect(boot && t && boot[1] - boot[0] < t[1] - t[0]).toBe(true);
  });

  test('returns null for one pair and rejects a silly resample count', () => {
    expect(bootstrapOverheadCi95([{ offTps: 10, onTps: 9 }], { seed: 1 })).toBeNull();
    expect(() => bootstrapOverheadCi95(pairs, { seed: 1, resamples: 5 })).toThrow('resamples must be');
  });

  test('covers a known 10% overhead in most of 200 simulated experiments, but less often than t', () => {
    const observed = coverage(200, (sample, trial) =>
      bootstrapOverheadCi95(sample, { seed: trial, resamples: 2_000 }),
    );
    // With 8 pairs the percentile bootstrap covers about 90% (85% on this seed) where t covers 95%:
    // resampling 8 values cannot see the tails that the t quantile allows for.
    expect(observed).toBeGreaterThanOrEqual(0.8);
    expect(observed).toBeLessThan(coverage(200, (sample) => pairedOverhead(sample).ci95));
  });
});

describe('pairedOverhead with a run-to-run spread (τ)', () => {
  const pairs: TpsPair[] = [
    { offTps: 1000, onTps: 905 },
    { offTps: 990, onTps: 893 },
    { offTps: 1010, onTps: 912 },
    { offTps: 1005, onTps: 899 },
    { offTps: 995, onTps: 901 },
    { offTps: 1002, onTps: 897 },
  ];
  const logBounds = (ci: readonly [number, number]): [number, number] => [
    Math.log(1 - ci[1] / 100),
    Math.log(1 - ci[0] / 100),
  ];

  test('adds τ² to the squared standard error, on the log scale, around the same estimate', () => {
    const plain = pairedOverhead(pairs);
    const tau = 0.01;
    const wider = pairedOverhead(pairs, { runToRunSdLog: tau });
    expect(wider.estimatePct).toBe(plain.estimatePct);
    expect(wider.sdLogRatio).toBe(plain.sdLogRatio);
    if (!plain.ci95 || !wider.ci95 || plain.sdLogRatio === null || plain.degreesOfFreedom === null) {
      throw new Error('expected intervals');
    }
    const t = jStat.studentt.inv(0.975, plain.degreesOfFreedom);
    const se = plain.sdLogRatio / Math.sqrt(pairs.length);
    const [lo, hi] = logBounds(wider.ci95);
    expect((hi - lo) / 2).toBeCloseTo(t * Math.sqrt(se * se + tau * tau), 10);
    expect(pairedOverhead(pairs, { runToRunSdLog: 0 }).ci95).toEqual(plain.ci95);
  });

  test.for([-0.01, Number.NaN])('refuses τ = %s', (tau) => {
    expect(() => pairedOverhead(pairs, { runToRunSdLog: tau })).toThrow('runToRunSdLog must be at least 0');
  });
});
