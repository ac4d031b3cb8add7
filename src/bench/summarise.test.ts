import { describe, expect, test } from 'vitest';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import { onShare } from './blocks.ts';
import type { OverheadSample } from './measure-overhead.ts';
import { withinRunLine } from './pipeline.ts';
import { summariseCalibration, summariseMeasurement } from './summarise.ts';

function result(tpsPerSecond: number[]): SysbenchResult {
  const transactions = tpsPerSecond.reduce((a, b) => a + b, 0);
  return {
    transactions,
    tps: transactions / tpsPerSecond.length,
    queries: transactions * 20,
    qps: (transactions * 20) / tpsPerSecond.length,
    reads: 0,
    writes: 0,
    other: 0,
    readsPerS: 0,
    writesPerS: 0,
    otherPerS: 0,
    latencyAvgMs: 5,
    latencyP95Ms: 9,
    latencyMaxMs: 20,
    errors: 0,
    reconnects: 0,
    durationS: tpsPerSecond.length,
    intervals: tpsPerSecond.map((tps, i) => ({
      atS: i + 1,
      threads: 4,
      tps,
      qps: tps * 20,
      latencyP95Ms: 9,
      errorsPerS: 0,
      reconnectsPerS: 0,
    })),
  };
}

describe('onShare', () => {
  test('counts only the seconds whose midpoint falls in an on segment', () => {
    const schedule = [
      { atS: 0, arm: 'off' as const },
      { atS: 2, arm: 'on' as const },
      { atS: 4, arm: 'off' as const },
    ];
    expect(onShare(result([100, 100, 50, 60, 100, 100]), schedule)).toEqual({
      transactions: 110,
      seconds: 2,
    });
  });
});

function sample(pairs: OverheadSample['pairs'], logBytes = 0): OverheadSample {
  const run = result([100, 100, 90, 90]);
  return {
    blocks: [
      {
        pairs,
        runs: [
          {
            arm: 'toggled',
            result: run,
            schedule: [{ atS: 0, arm: 'off' }],
            logBytes,
            onTransactions: 180,
            onSeconds: 2,
          },
        ],
      },
    ],
    pairs,
    warmupTps: 100,
    wallS: 12,
    stoppedBecause: 'decisive',
    design: { kind: 'toggle', segmentS: 2 },
    pinning: null,
  };
}

describe('summariseMeasurement', () => {
  const context = { limitPct: 20, serverOptions: {}, pluginSettings: { x: '1' }, calibration: null };

  test('a clear 10% overhead passes a 20% limit, with bytes per transaction from the on seconds', () => {
    const pairs = [
      { offTps: 1000, onTps: 900 },
      { offTps: 1010, onTps: 905 },
      { offTps: 990, onTps: 893 },
    ];
    const m = summariseMeasurement(sample(pairs, 360_000), context);
    expect(m.verdict).toBe('pass');
    expect(m.overheadPct).toBeCloseTo(10.2, 0);
    expect(m.overheadCi95?.[0]).toBeLessThan(m.overheadPct);
    expect(m.logBytesPerTxn).toBe(2_000);
    expect(m.logMbPerMin).toBeCloseTo(10.8, 5);
    expect(m.design).toBe('toggle every 2 s inside one run, ABBA');
    expect(m.runs[0]?.tpsPerSecond).toEqual([100, 100, 90, 90]);
  });

  test('the same overhead fails a 5% limit and the reason names both numbers', () => {
    const pairs = [
      { offTps: 1000, onTps: 900 },
      { offTps: 1010, onTps: 905 },
      { offTps: 990, onTps: 893 },
    ];
    const m = summariseMeasurement(sample(pairs), { ...context, limitPct: 5 });
    expect(m.verdict).toBe('fail');
    expect(m.reason).toMatch(/10\.\d% .*above the 5% limit/);
  });

  test('no pairs at all is an error, not a number', () => {
    expect(() => summariseMeasurement(sample([]), context)).toThrow(/no off\/on pair/);
  });

  test("with τ the verdict's interval carries it, and the within-run interval (and its line) is kept beside it", () => {
    const pairs = [
      { offTps: 1000, onTps: 900 },
      { offTps: 1010, onTps: 905 },
      { offTps: 990, onTps: 893 },
    ];
    const without = summariseMeasurement(sample(pairs), context);
    const withTau = summariseMeasurement(sample(pairs), { ...context, runToRunSdLog: 0.009 });
    expect(without.withinRunCi95).toEqual(without.overheadCi95);
    expect(withTau.withinRunCi95).toEqual(without.overheadCi95);
    const width = (ci: [number, number] | null | undefined) => (ci ? ci[1] - ci[0] : Number.NaN);
    expect(width(withTau.overheadCi95)).toBeGreaterThan(width(withTau.withinRunCi95));
    expect(withinRunLine(without)).toBeNull();
    expect(withinRunLine(withTau)).toMatch(
      /^within this run: 10\.\d% \[\d+\.\d, \d+\.\d\], ±\d\.\d\d pp; the verdict's ±\d+\.\d\d pp adds the run-to-run spread τ = 0\.009$/,
    );
  });
});

describe('summariseCalibration', () => {
  test('A/A pairs around zero give an interval containing 0 and a positive noise floor', () => {
    const pairs = [
      { offTps: 1000, onTps: 1010 },
      { offTps: 1005, onTps: 995 },
      { offTps: 998, onTps: 1001 },
      { offTps: 1002, onTps: 997 },
    ];
    const c = summariseCalibration(sample(pairs), 4);
    expect(c.containsZero).toBe(true);
    expect(c.noiseFloorPct).toBeGreaterThan(0);
    expect(c.minDetectablePct).toBeGreaterThan(c.noiseFloorPct);
  });
});
