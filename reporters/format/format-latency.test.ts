import { expect, test } from 'vitest';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import { quantileChange, recordedReportInput } from '../../test/support/report-fixtures.ts';
import { latencyChartData, latencySpec } from '../charts/latency-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { formatLatencyMarkdown, formatLatencyText, latencyRows, latencySection } from './format-latency.ts';
import { formatSweepText, sweepGroups } from './format-sweep.ts';

const [recorded] = recordedReportInput().file.results;
if (!recorded?.measurement) throw new Error('the recorded results hold no measurement');

const measured = (p99Pct: number, ci: [number, number], failed = false): Measurement['latency'] => ({
  measured: true,
  pairs: 6,
  skippedPairs: 0,
  trimmedEachSide: 1,
  offTransactions: 4000,
  onTransactions: 3800,
  p95: quantileChange(8, 4, [1, 7]),
  p99: quantileChange(12, p99Pct, ci),
  maxP99IncreasePct: failed ? 10 : null,
  p99LimitFailed: failed,
  reason: '',
});

function point(threads: number, latency: Measurement['latency']): PluginResult {
  const measurement = recorded?.measurement;
  if (!measurement || !recorded) throw new Error('fixture changed');
  return {
    ...recorded,
    runId: `sa@t${threads}-pinned`,
    measurement: { ...measurement, threads, cores: 'pinned', sweepOf: 'sa', latency },
  };
}
const sweep = [
  point(1, measured(6.5, [2.1, 11])),
  point(4, measured(25, [14, 36], true)),
  point(16, { measured: false, reason: 'sysbench printed no latency lines' }),
];

test('one row per result: p95/p99 off → on, the changes with intervals, and a missing record with its reason', () => {
  const rows = latencyRows(sweep);
  expect(rows.map((r) => r.threads)).toEqual([1, 4, 16]);
  const text = formatLatencyText(rows);
  expect(text).toMatch(
    /sa@t1-pinned +1 +8\.00 → 8\.32 +4\.0% \[1\.0, 7\.0\] +12\.00 → 12\.78 +6\.5% \[2\.1, 11\.0\] +0\.78 \[0\.25, 1\.32\]/,
  );
  expect(text).toContain('10% exceeded');
  expect(text).toContain('not measured: sysbench printed no latency lines');
  expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(150);
  const markdown = formatLatencyMarkdown(rows).join('\n');
  expect(markdown).toContain('| sa@t4-pinned | 4 |');
  expect(markdown).toContain('**exceeded**');
  expect(formatLatencyMarkdown(latencyRows([recorded]))).toEqual([]);
});

test('a result with no run id is named by its title, as in the overview', () => {
  const [first] = sweep;
  if (!first) throw new Error('the sweep holds points');
  for (const runId of [undefined, '']) {
    expect(latencyRows([{ ...first, runId }])[0]?.runId).toBe(first.title);
  }
});

test("the sweep table has the p95/p99 change beside each point's overhead", () => {
  const text = formatSweepText(sweepGroups(sweep));
  expect(text).toContain('p99 change [95% CI]');
  expect(text).toMatch(/^ {2}4 +pinned .*25\.0% \[14\.0, 36\.0\]/m);
});

test('index.html: the p99 change against threads, and the table', async () => {
  const groups = sweepGroups(sweep);
  expect(latencyChartData(groups).map((p) => [p.threads, p.low, p.high])).toEqual([
    [1, 2.1, 11],
    [4, 14, 36],
  ]);
  const spec = latencySpec(groups);
  const svg = spec ? await renderSvg(spec) : null;
  expect(svg).toContain('p99 change %');
  const section = latencySection(latencyRows(sweep), svg);
  expect(section?.tables?.[0]?.rows).toHaveLength(3);
  expect(latencySection([], null)).toBeNull();
});
