import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type Measurement, resultsFileSchema } from '../../src/results/schema.ts';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { overheadSpec, timelineData, trendEntries, trendSpec } from './chart-specs.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);
const result = recorded.results[0];
if (!result?.measurement) throw new Error('the fixture holds a measured result');
const measurement: Measurement = result.measurement;

const run = (
  arm: 'off' | 'on' | 'toggled',
  tpsPerSecond: number[],
  schedule: Measurement['runs'][0]['schedule'],
) => ({
  arm,
  schedule,
  tps: 0,
  qps: 0,
  latencyAvgMs: 0,
  latencyP95Ms: 0,
  logBytes: 0,
  tpsPerSecond,
});

describe('timelineData', () => {
  test('a recorded toggled run: every second gets the arm its midpoint falls in, one span per switch', () => {
    const { points, spans } = timelineData(measurement);
    const [toggled] = measurement.runs;
    expect(points).toHaveLength(toggled?.tpsPerSecond.length ?? -1);
    expect(spans).toHaveLength(toggled?.schedule.length ?? -1);
    // Schedule: off at 0, on at 4.006, on at 8, off at 12.003 …
    expect(points.slice(0, 13).map((p) => p.arm)).toEqual([
      ...Array(4).fill('off'),
      ...Array(8).fill('on'),
      'off',
    ]);
    expect(new Set(points.slice(4, 8).map((p) => p.segment))).toEqual(new Set([1]));
    expect(points[8]?.segment).toBe(2);
  });

  test('separate runs sit one after another, each one arm, with a gap', () => {
    const { points, spans } = timelineData({
      ...measurement,
      runs: [run('off', [10, 11], [{ atS: 0, arm: 'off' }]), run('on', [9, 8], [])],
    });
    expect(points.map((p) => [p.tS, p.arm, p.segment])).toEqual([
      [0.5, 'off', 0],
      [1.5, 'off', 0],
      [4.5, 'on', 1],
      [5.5, 'on', 1],
    ]);
    expect(spans).toEqual([
      { startS: 0, endS: 2, arm: 'off' },
      { startS: 4, endS: 6, arm: 'on' },
    ]);
  });
});

test('the overhead chart has the measurement, the A/A interval and the limit; none without an interval', () => {
  const spec = JSON.stringify(overheadSpec(result));
  expect(spec).toContain('plugin on vs off');
  expect(spec).toContain('A/A: off vs off');
  expect(spec).toContain('limit 50%');
  expect(overheadSpec({ ...result, measurement: null })).toBeNull();
});

describe('trend', () => {
  const current = sampleEntry({
    invocationId: 'now',
    recordedAt: '2026-11-30T00:00:00Z',
    commit: 'cccccccc',
  });

  test('keeps measured entries of the same plugin, server, workload and machine, oldest first', () => {
    const history = [
      sampleEntry({ invocationId: 'b', recordedAt: '2026-11-29T00:00:00Z' }),
      sampleEntry({ invocationId: 'a', recordedAt: '2026-11-28T00:00:00Z' }),
      sampleEntry({ invocationId: 'x', workload: 'standard' }),
      sampleEntry({ invocationId: 'y', fingerprint: 'other' }),
      sampleEntry({ invocationId: 'z', overheadPct: null, overheadCi95: null }),
      current,
    ];
    expect(trendEntries(history, current).map((e) => e.invocationId)).toEqual(['a', 'b', 'now']);
  });

  test('labels runs by commit and time; nothing measured, no chart', () => {
    expect(JSON.stringify(trendSpec([current]))).toContain('ccccccc 11-30 00:00');
    expect(trendSpec([{ ...current, overheadPct: null }])).toBeNull();
  });
});
