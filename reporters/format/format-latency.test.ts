import { expect, test } from 'vitest';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import { quantileChange, recordedReportInput } from '../../test/support/report-fixtures.ts';
import { latencyChartData, latencySpec } from '../charts/latency-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { latencyContent, latencyRows } from './format-latency.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { sweepContent } from './format-sweep.ts';
import { sectionText } from './format-terminal.ts';
import { sweepGroups } from './sweep-groups.ts';

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
  const content = latencyContent(rows, sweepGroups(sweep));
  expect(content.tables?.[0]?.rows[0]).toEqual([
    'sa@t1-pinned',
    '1',
    '8.00 → 8.32',
    '4.0% [1.0, 7.0]',
    '12.00 → 12.78',
    '6.5% [2.1, 11.0]',
    '0.78 [0.25, 1.32]',
    '6',
    '–',
  ]);
  expect(content.tables?.[0]?.rows[1]?.at(-1)).toBe('10% exceeded');
  const text = sectionText(content);
  expect(text).toContain('- sa@t16-pinned: not measured: sysbench printed no latency lines');
  expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(120);
  const markdown = sectionMarkdown('Tail latency', content).join('\n');
  expect(markdown).toContain('| sa@t4-pinned | 4 |');
  expect(markdown).toContain('| 10% exceeded |');
  expect(latencyRows([recorded])).toEqual([]);
});

test('a result with no run id is named by its title, as in the overview', () => {
  const [first] = sweep;
  if (!first) throw new Error('the sweep holds points');
  for (const runId of [undefined, '']) {
    expect(latencyRows([{ ...first, runId }])[0]?.runId).toBe(first.title);
  }
});

test("the sweep table has the p95/p99 change beside each point's overhead", () => {
  const [table] = sweepContent(sweepGroups(sweep)).tables ?? [];
  expect(table?.head.map((h) => h.text)).toContain('p99 change [95% CI]');
  expect(table?.rows[1]).toContain('25.0% [14.0, 36.0]');
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
  const content = latencyContent(latencyRows(sweep), groups);
  expect(content.charts?.[0]?.name).toBe('latency');
  // The measured points are the table's rows; the one that measured nothing is a line under it.
  expect(content.tables?.[0]?.rows).toHaveLength(2);
  expect(content.list).toEqual(['sa@t16-pinned: not measured: sysbench printed no latency lines']);
});

test('a column no row has a value in is not printed: without a p99 limit on any run, no "p99 limit" column', () => {
  const unlimited = [point(1, measured(6.5, [2.1, 11])), point(4, measured(25, [14, 36]))];
  const [table] = latencyContent(latencyRows(unlimited), sweepGroups(unlimited)).tables ?? [];
  expect(table?.head.map((h) => h.text)).not.toContain('p99 limit');
  expect(table?.rows.every((row) => row.length === table.head.length)).toBe(true);
  const [limited] = latencyContent(latencyRows(sweep), sweepGroups(sweep)).tables ?? [];
  expect(limited?.head.map((h) => h.text).at(-1)).toBe('p99 limit');
});
