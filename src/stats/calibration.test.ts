import jStat from 'jstat';
import { describe, expect, test } from 'vitest';
import { simulatePairs } from '../../test/support/simulation.ts';
import {
  calibrateNoise,
  minimumDetectableOverheadPct,
  noiseFloorPct,
  pairsForDetectableOverhead,
} from './calibration.ts';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import type { TpsPair } from './tps-pair.ts';
import { decideVerdict } from './verdict.ts';

// Reference: the formulas from the module comment, spelled out with loops. The spread is Yuen's: the 20%
// winsorized sum of squares over h(h − 1), times n; a gate of n pairs keeps n − 2⌊0.2n⌋ of them.
function naiveCalibration(
  pairs: TpsPair[],
  gatePairs: number,
): { floorPct: number; mdePct: number; sd: number } {
  const logs: number[] = [];
  for (const pair of pairs) logs.push(Math.log(pair.onTps / pair.offTps));
  logs.sort((a, b) => a - b);
  const n = logs.length;
  const g = Math.floor(0.2 * n);
  const h = n - 2 * g;
  const winsorized: number[] = [];
  for (let i = 0; i < n; i++) winsorized.push(logs[Math.min(Math.max(i, g), n - g - 1)] as number);
  let sum = 0;
  for (const value of winsorized) sum += value;
  let squares = 0;
  for (const value of winsorized) squares += (value - sum / n) ** 2;
  const sd = Math.sqrt(squares / (h * (h - 1))) * Math.sqrt(n);
  const se = sd / Math.sqrt(gatePairs);
  const gateDf = gatePairs - 2 * Math.floor(0.2 * gatePairs) - 1;
  const t975 = jStat.studentt.inv(0.975, gateDf);
  const t80 = jStat.studentt.inv(0.8, gateDf);
  return { floorPct: 100 * (1 - Math.exp(-t975 * se)), mdePct: 100 * (1 - Math.exp(-(t975 + t80) * se)), sd };
}

const aaPairs: TpsPair[] = [
  { offTps: 1000, onTps: 1021 },
  { offTps: 990, onTps: 968 },
  { offTps: 1012, onTps: 1003 },
  { offTps: 1005, onTps: 1030 },
  { offTps: 998, onTps: 985 },
];

describe('calibrateNoise', () => {
  test.for([undefined, 5, 12, 40])('matches the naive formulas for a gate of %s pairs', (gatePairs) => {
    const calibration = calibrateNoise(aaPairs, gatePairs === undefined ? {} : { gatePairs });
    const naive = naiveCalibration(aaPairs, gatePairs ?? aaPairs.length);
    expect(calibration.sdLogRatio).toBeCloseTo(naive.sd, 12);
    expect(calibration.noiseFloorPct).toBeCloseTo(naive.floorPct, 10);
    expect(calibration.minimumDetectablePct).toBeCloseTo(naive.mdePct, 10);
  });

  test('reports the A/A bias with an interval that should contain zero', () => {
    const calibration = calibrateNoise(aaPairs);
    expect(calibration.biasCi95[0]).toBeLessThan(0);
    expect(calibration.biasCi95[1]).toBeGreaterThan(0);
    expect(calibration.biasPct).toBeCloseTo(pairedOverhead(aaPairs).estimatePct, 12);
  });

  test('needs two pairs, and names a zero TPS', () => {
    expect(() => calibrateNoise([{ offTps: 1, onTps: 1 }])).toThrow('at least 2 pairs');
    expect(() => calibrateNoise([...aaPairs, { offTps: 1, onTps: 0 }])).toThrow('pairs[5].onTps');
  });

  test('the noise floor shrinks with more gate pairs, and the detectable overhead stays above it', () => {
    const floors = [3, 6, 12, 24].map((pairs) => noiseFloorPct(0.03, pairs));
    for (let i = 1; i < floors.length; i++) expect(floors[i]).toBeLessThan(floors[i - 1] ?? 0);
    expect(minimumDetectableOverheadPct(0.03, 6)).toBeGreaterThan(noiseFloorPct(0.03, 6));
  });
});

describe('minimumDetectableOverheadPct', () => {
  test('a true overhead that far above the limit fails the gate about 80% of the time', () => {
    const sdLogRatio = 0.04; // per-run noise sd 0.04/√2 ≈ 2.8%, like 10 s runs here
    const pairCount = 8;
    const limitPct = 5;
    // Detectable distance is on the log scale, so place the truth that far beyond the limit's log-ratio.
    const mdeLog = -Math.log(1 - minimumDetectableOverheadPct(sdLogRatio, pairCount) / 100);
    const trueOverheadPct = 100 * (1 - (1 - limitPct / 100) * Math.exp(-mdeLog));
    const rng = createRng(31_337);
    let fails = 0;
    for (let trial = 0; trial < 400; trial++) {
      const pairs = simulatePairs({ pairCount, trueOverheadPct, runNoiseSd: sdLogRatio / Math.SQRT2 }, rng);
      if (decideVerdict({ ...pairedOverhead(pairs), limitPct }).verdict === 'fail') fails++;
    }
    // 80% is the design power; central t quantiles make it approximate (5000 runs of this gave 79.9%).
    expect(fails / 400).toBeGreaterThanOrEqual(0.7);
    expect(fails / 400).toBeLessThanOrEqual(0.88);
  });

  test.for([
    { sdLogRatio: -0.1, pairCount: 5, message: 'sdLogRatio must be a finite number of at least 0, got -0.1' },
    { sdLogRatio: 0.1, pairCount: 1, message: 'pairCount must be an integer of at least 2, got 1' },
  ])('rejects $message', ({ sdLogRatio, pairCount, message }) => {
    expect(() => minimumDetectableOverheadPct(sdLogRatio, pairCount)).toThrow(message);
  });
});

describe('pairsForDetectableOverhead', () => {
  test('finds the fewest pairs, matching a naive search', () => {
    const needed = pairsForDetectableOverhead(0.04, 5);
    expect(needed).not.toBeNull();
    const n = needed ?? 0;
    expect(naiveCalibrationMde(0.04, n)).toBeLessThanOrEqual(5);
    expect(naiveCalibrationMde(0.04, n - 1)).toBeGreaterThan(5);
  });

  test('returns null when even maxPairs are not enough, and names a bad target', () => {
    expect(pairsForDetectableOverhead(0.5, 1, { maxPairs: 10 })).toBeNull();
    expect(() => pairsForDetectableOverhead(0.04, 0)).toThrow(
      'targetPct must be strictly between 0 and 100, got 0',
    );
  });
});

function naiveCalibrationMde(sd: number, n: number): number {
  const df = n - 2 * Math.floor(0.2 * n) - 1;
  const q = jStat.studentt.inv(0.975, df) + jStat.studentt.inv(0.8, df);
  return 100 * (1 - Math.exp((-q * sd) / Math.sqrt(n)));
}

describe('noise floor with a run-to-run spread (τ)', () => {
  test('does not shrink below t·τ however many pairs a gate has', () => {
    const tau = 0.01;
    const floorAt = (n: number) => noiseFloorPct(0.05, n, tau);
    expect(floorAt(10)).toBeGreaterThan(noiseFloorPct(0.05, 10));
    const tauOnly = 100 * (1 - Math.exp(-jStat.studentt.inv(0.975, 1000 - 2 * 200 - 1) * tau));
    expect(floorAt(1000)).toBeGreaterThan(tauOnly);
    expect(floorAt(1000)).toBeLessThan(tauOnly * 1.05);
    expect(minimumDetectableOverheadPct(0.05, 10, 0.8, tau)).toBeGreaterThan(
      minimumDetectableOverheadPct(0.05, 10),
    );
  });
});
