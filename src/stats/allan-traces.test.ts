import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { allanDeviation } from './allan.ts';
import {
  formatNoiseCurves,
  logTpsSeries,
  noiseCurves,
  type RecordedTrace,
  type TraceFile,
} from './allan-traces.ts';

// The 40 quiet-machine SQL_ERROR_LOG null controls (fixtures/traces/README.md); bench:noise's own input.
const file = JSON.parse(
  readFileSync(
    new URL('../../fixtures/traces/coverage-smoke-2026-12-01-quiet-machine.json', import.meta.url),
    'utf8',
  ),
) as TraceFile;

describe('noise curves of the recorded smoke trace', () => {
  const curves = noiseCurves(file.traces, 'one-series');

  test('one curve per condition and one over every run, at τ = 1 … 12 s', () => {
    expect(curves.map((c) => [c.condition, c.runs])).toEqual([
      ['quiet', 20],
      ['load', 20],
      ['all', 40],
    ]);
    expect(curves[0]?.points.map((p) => p.tauS)).toEqual([1, 2, 3, 4, 6, 8, 12]);
  });

  test('the pooled curve at τ = 1 is the pooled one-second Allan deviation of ln TPS', () => {
    const all = curves.at(-1);
    // 40 runs of 48 s (one has 47): 47 differences each at m = 1.
    expect(all?.points[0]?.terms).toBe(1878);
    const first = file.traces[0] as RecordedTrace;
    const single = noiseCurves([first], 'one-series')[0]?.points[0]?.deviation;
    expect(single).toBeCloseTo(allanDeviation(first.tpsPerSecond.map(Math.log), 1) ?? Number.NaN, 12);
  });

  // What the recorded data says (docs/measurements/2026-12-01-noise-smoke.md): averaging past a few seconds buys
  // little, the curve sits well above white noise's 1/√τ at 12 s.
  test('the curve flattens: at 12 s it is far above white noise', () => {
    const point = curves.at(-1)?.points.at(-1);
    expect(point?.tauS).toBe(12);
    expect((point?.deviation ?? 0) / (point?.whiteNoise ?? 1)).toBeGreaterThan(2);
  });

  test('prints a table per curve', () => {
    const text = formatNoiseCurves(curves);
    expect(text).toContain('all (40 runs)');
    expect(text).toContain('      1       2.77%        2.77%   1.00   1878');
  });
});

describe('logTpsSeries', () => {
  const toggled: RecordedTrace = {
    name: 'step',
    condition: 'quiet',
    tpsPerSecond: [100, 100, 90, 90, 100, 100],
    schedule: [
      { atS: 0, arm: 'off' },
      { atS: 2.005, arm: 'on' },
      { atS: 4.005, arm: 'off' },
    ],
  };

  test('per arm, the plugin step is taken out; as one series it is kept', () => {
    expect(logTpsSeries(toggled, 'per-arm').every((x) => Math.abs(x) < 1e-12)).toBe(true);
    expect(allanDeviation(logTpsSeries(toggled, 'one-series'), 1)).toBeGreaterThan(0);
  });

  test('a second without throughput is named', () => {
    expect(() => logTpsSeries({ ...toggled, tpsPerSecond: [100, 0] }, 'one-series')).toThrow(
      "Trace 'step' has TPS 0 at second 2",
    );
  });
});
