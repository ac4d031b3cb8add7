import type { Comparison } from '../../src/history/compare.ts';
import { type HistoryEntry, machineFingerprint, type Revision } from '../../src/history/entry.ts';
import type { PluginResult, ResultsFile } from '../../src/results/schema.ts';
import { overheadSpec, timelineSpec, trendEntries, trendSpec } from '../charts/chart-specs.ts';
import { diskUseSpec } from '../charts/disk-use-spec.ts';
import { overviewSpec } from '../charts/overview-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { formatComparison } from './format-comparison.ts';
import { completenessSection } from './format-completeness.ts';
import { type ChartFigure, formatHtmlReport, type HtmlTable, type ReportSection } from './format-html.ts';
import { interferenceLines } from './format-interference.ts';
import { perEventSection } from './format-per-event.ts';
import { lifecycleFindings, SEED_ROWS, type SeedTable, seedTable } from './format-seed-table.ts';
import { runLabel } from './format-summary.ts';

export interface HtmlReportInput {
  file: ResultsFile;
  revision: Revision;
  /** This run's history entries and comparisons, one per result in file.results order. */
  entries: HistoryEntry[];
  comparisons: Comparison[];
  /** The history before this run. */
  prior: HistoryEntry[];
  maxRegressionPp: number | null;
  /** This run's id: the page shows this run only, while results.json merges every recorded run. */
  runId?: string;
}

async function figures(result: PluginResult, entry: HistoryEntry | undefined, prior: HistoryEntry[]) {
  const m = result.measurement;
  const timeline = m?.runs.some((r) => r.tpsPerSecond.length > 0) ? timelineSpec(m) : null;
  const overhead = overheadSpec(result);
  const trend = entry ? trendSpec(trendEntries([...prior, entry], entry)) : null;
  const figure = async (
    name: ChartFigure['name'],
    spec: typeof trend,
    empty: string,
  ): Promise<ChartFigure> => ({
    name,
    svg: spec ? await renderSvg(spec) : null,
    empty,
  });
  return Promise.all([
    figure('timeline', timeline, 'No measured runs: the measurement did not finish.'),
    figure('overhead', overhead, 'No overhead interval: the measurement did not finish.'),
    figure(
      'trend',
      trend,
      'No measured run of this plugin, server, workload and machine in the history yet.',
    ),
  ]);
}

function seedHtmlTable(table: SeedTable): HtmlTable {
  return {
    caption: "The seed's comparison, this run beside it",
    head: [
      { text: '' },
      ...table.columns.map((c) => ({
        text: c.heading,
        note: c.subheading,
        ...(c.kind === 'seed' && { className: 'seed' }),
      })),
    ],
    rows: SEED_ROWS.map((label, row) => [label, ...table.columns.map((c) => c.cells[row] ?? '–')]),
    notes: table.notes,
  };
}

/** The opening section: every run ranked against its limit, the seed's table, and what the lifecycle checks found. */
async function overviewSection(results: readonly PluginResult[]): Promise<ReportSection> {
  const spec = overviewSpec(results);
  const seed = seedTable(results);
  const counts = ['pass', 'fail', 'inconclusive', 'error'].flatMap((verdict) => {
    const n = results.filter((r) => r.verdict === verdict).length;
    return n > 0 ? [`${n} ${verdict}`] : [];
  });
  const unmeasured = results.filter((r) => r.overheadPct === null).map(runLabel);
  return {
    heading: 'Overview',
    lines: [
      `${results.length} run${results.length === 1 ? '' : 's'}: ${counts.join(', ')}.`,
      ...(unmeasured.length > 0 ? [`No overhead estimate: ${unmeasured.join(', ')}.`] : []),
    ],
    figures: [
      {
        name: 'overview',
        svg: spec ? await renderSvg(spec) : null,
        empty: 'No run has an overhead estimate yet.',
      },
    ],
    tables: seed ? [seedHtmlTable(seed)] : [],
    list: { heading: 'Lifecycle findings', items: results.flatMap(lifecycleFindings) },
  };
}

/** index.html: an overview of every run, then per plugin and server, the TPS timeline, the overhead against the limit, and the trend. */
export async function buildHtmlReport(input: HtmlReportInput): Promise<string> {
  const { file, revision } = input;
  const sections: ReportSection[] = await Promise.all(
    file.results.map(async (r, i) => {
      const comparison = input.comparisons[i];
      return {
        heading: `${runLabel(r)} · ${r.server.flavor} ${r.server.version} (${r.server.target}) · ${r.workload}`,
        lines: [
          r.measurement?.reason ?? `verdict ${r.verdict}: no measurement finished`,
          ...(comparison ? [formatComparison(comparison, input.maxRegressionPp)] : []),
          ...interferenceLines([r]),
        ],
        figures: await figures(r, input.entries[i], input.prior),
      };
    }),
  );
  sections.unshift(await overviewSection(file.results));
  const completeness = completenessSection(file.results);
  if (completeness) sections.push(completeness);
  const diskUse = diskUseSpec(file.results);
  const perEvent = perEventSection(file.results, diskUse ? await renderSvg(diskUse) : null);
  if (perEvent) sections.push(perEvent);
  return formatHtmlReport({
    title: 'auditbench report',
    lines: [
      `Commit ${revision.commit.slice(0, 12)} on ${revision.branch}, generated ${file.generatedAt} on ${machineFingerprint(file.machine)}.`,
      ...(input.runId
        ? [
            `This page shows run ${input.runId.slice(0, 8)} only; results.json merges every recorded run (runs/index.json).`,
          ]
        : []),
    ],
    sections,
  });
}
