import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { sweepChartData, sweepSpec } from '../charts/sweep-spec.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { sweepContent } from './format-sweep.ts';
import { sectionText } from './format-terminal.ts';
import { sweepGroups } from './sweep-groups.ts';

const [recorded] = recordedReportInput().file.results;
if (!recorded?.measurement) throw new Error('the recorded results hold no measurement');

/** A point of a sweep of run `sa` made from the recorded result: its own id, threads and interval. */
function point(threads: number, overheadPct: number, ci: [number, number]): PluginResult {
  const measurement = recorded?.measurement;
  if (!measurement || !recorded) throw new Error('fixture changed');
  return {
    ...recorded,
    runId: `sa@t${threads}-pinned`,
    overheadPct,
    overheadCi95: ci,
    measurement: { ...measurement, threads, cores: 'pinned', sweepOf: 'sa' },
  };
}
const sweep = [point(4, 12.5, [9, 16]), point(1, 10.2, [7.1, 13.3])];

test("a sweep's points group under their run, by threads; a run at its one default point is no sweep", () => {
  const [group, ...rest] = sweepGroups(sweep);
  expect(rest).toEqual([]);
  expect(group?.run).toBe('sa');
  expect(group?.points.map((p) => [p.threads, p.overheadPct])).toEqual([
    [1, 10.2],
    [4, 12.5],
  ]);
  const today = {
    ...recorded,
    measurement: { ...recorded.measurement, threads: 8, cores: 'pinned' as const },
  };
  expect(sweepGroups([recorded, today as PluginResult])).toEqual([]);
});

test('the terminal and summary.md show one row per point with its interval', () => {
  const groups = sweepGroups(sweep);
  const text = sectionText(sweepContent(groups));
  expect(text).toContain('sa on ');
  expect(text).toMatch(/^ {2}1 +pinned .*10\.2% \[7\.1, 13\.3\]/m);
  expect(text).toMatch(/^ {2}4 +pinned .*12\.5% \[9\.0, 16\.0\]/m);
  const markdown = sectionMarkdown('Overhead by threads', sweepContent(groups));
  expect(
    markdown.filter((line) => line.startsWith('| 1 | pinned') || line.startsWith('| 4 | pinned')),
  ).toHaveLength(2);
});

test('the chart draws each point with its interval against threads, and renders to SVG', async () => {
  const groups = sweepGroups(sweep);
  expect(sweepChartData(groups)).toEqual([
    { series: 'sa (pinned cores)', threads: 1, overheadPct: 10.2, low: 7.1, high: 13.3 },
    { series: 'sa (pinned cores)', threads: 4, overheadPct: 12.5, low: 9, high: 16 },
  ]);
  const spec = sweepSpec(groups);
  if (!spec) throw new Error('no spec');
  const svg = await renderSvg(spec);
  expect(svg).toContain('<svg');
  expect(svg).toContain('sysbench threads');
  expect(sweepContent(groups).tables?.[0]?.rows).toHaveLength(2);
  expect(sweepSpec([])).toBeNull();
  expect(sweepContent([]).tables).toEqual([]);
});

test('an open-loop point comes last, names its rate, and is a series of its own in the chart', () => {
  const base = point(4, 12.5, [9, 16]);
  const open = {
    ...base,
    runId: 'sa@t4-pinned-open',
    overheadPct: 0.4,
    overheadCi95: [-0.6, 1.4] as [number, number],
    measurement: {
      ...(base.measurement as NonNullable<PluginResult['measurement']>),
      openLoop: { ratePerS: 350, ofBaselinePct: 70, baselineTps: 500, baselineRunId: 'sa@t4-pinned' },
    },
  };
  const [group] = sweepGroups([open, ...sweep]);
  expect(group?.points.map((p) => [p.threads, p.openLoopRate])).toEqual([
    [1, null],
    [4, null],
    [4, 350],
  ]);
  const rows = sweepContent(sweepGroups([open, ...sweep])).tables?.[0]?.rows ?? [];
  expect(rows.at(-1)?.slice(0, 4)).toEqual(['4, open loop 350/s', 'pinned', '565.6', '0.4% [-0.6, 1.4]']);
  expect(sweepChartData(sweepGroups([open, ...sweep])).map((p) => p.series)).toEqual([
    'sa (pinned cores)',
    'sa (pinned cores)',
    'sa (open loop, pinned cores)',
  ]);
});
