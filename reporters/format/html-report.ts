import type { Comparison } from '../../src/history/compare.ts';
import { type HistoryEntry, machineFingerprint, type Revision } from '../../src/history/entry.ts';
import type { PluginResult, ResultsFile } from '../../src/results/schema.ts';
import { overheadSpec, timelineSpec, trendEntries, trendSpec } from '../charts/chart-specs.ts';
import { overviewSpec } from '../charts/overview-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { auditEventsLine } from './format-audit-events.ts';
import { formatComparison } from './format-comparison.ts';
import { type ChartFigure, formatHtmlReport, type HtmlTable, type ReportSection } from './format-html.ts';
import { interferenceLines } from './format-interference.ts';
import { memoryLine } from './format-memory.ts';
import { openingColumns, plainCell, settingsText } from './opening-table.ts';
import { runIdOf, statusLine } from './run-status.ts';
import type { Section, SectionContent } from './section.ts';
import { SECTIONS } from './sections.ts';

export interface HtmlReportInput {
  file: ResultsFile;
  revision: Revision;
  /** This run's history entries and comparisons, one per result in file.results order. */
  entries: HistoryEntry[];
  comparisons: Comparison[];
  /** The history before this run. */
  prior: HistoryEntry[];
  maxRegressionPp: number | null;
  /** This invocation's id: the page shows this invocation only, while results.json merges every recorded one. */
  invocationId?: string;
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

/** The overview chart's legend: the opening table's columns for the page (each run id, its status and why, what it is). */
function runsTable(results: readonly PluginResult[]): HtmlTable {
  const columns = openingColumns('html');
  return {
    caption: 'Runs',
    head: columns.map((c) => ({ text: c.head })),
    rows: results.map((result) => columns.map((c) => plainCell(c.cell({ result })))),
  };
}

/**
 * A section on the page: what it shows, its charts rendered to SVG, its tables (a table without a caption of its own
 * is captioned by the title) and its list.
 */
export async function sectionHtml(title: string, content: SectionContent): Promise<ReportSection> {
  return {
    heading: title,
    lines: content.about ?? [],
    figures: await Promise.all(
      (content.charts ?? []).map(async (c) => ({
        name: c.name,
        svg: c.spec ? await renderSvg(c.spec) : null,
        empty: c.empty,
      })),
    ),
    tables: (content.tables ?? []).map((t) => ({ ...t, caption: t.caption ?? title })),
    ...(content.list && content.list.length > 0 && { lists: [{ items: content.list }] }),
  };
}

/**
 * The opening section: every run ranked against its limit under its id, a legend of what each id is, then the
 * sections that belong at the top (the seed's table, what the lifecycle checks found), their lists under their
 * titles. A run counts as failed when its overhead or a lifecycle check failed.
 */
async function overviewSection(
  results: readonly PluginResult[],
  sections: readonly Section[],
): Promise<ReportSection> {
  const spec = overviewSpec(results);
  const unmeasured = results.filter((r) => r.overheadPct === null).map(runIdOf);
  const parts = await Promise.all(
    sections
      .filter((s) => s.inOverview && s.shows(results))
      .map(async (s) => ({ s, html: await sectionHtml(s.title, s.content(results)) })),
  );
  return {
    heading: 'Overview',
    lines: [
      statusLine(results),
      ...(unmeasured.length > 0 ? [`No overhead estimate: ${unmeasured.join(', ')}.`] : []),
      ...parts.flatMap(({ html }) => html.lines),
    ],
    figures: [
      {
        name: 'overview',
        svg: spec ? await renderSvg(spec) : null,
        empty: 'No run has an overhead estimate yet.',
      },
      ...parts.flatMap(({ html }) => html.figures),
    ],
    tables: [runsTable(results), ...parts.flatMap(({ html }) => html.tables ?? [])],
    lists: parts.flatMap(({ s, html }) =>
      (html.lists ?? []).map((l) => ({ heading: s.title, items: l.items })),
    ),
  };
}

/**
 * index.html: an overview of every run, then per plugin and server the TPS timeline, the overhead against the limit
 * and the trend, then the sections every report shares (sections.ts) that do not belong in the overview.
 */
export async function buildHtmlReport(input: HtmlReportInput, sections = SECTIONS): Promise<string> {
  const { file, revision } = input;
  const runSections: ReportSection[] = await Promise.all(
    file.results.map(async (r, i) => {
      const comparison = input.comparisons[i];
      return {
        heading: `${runIdOf(r)} · ${r.server.flavor} ${r.server.version} (${r.server.target}) · ${r.workload}`,
        lines: [
          ...(runIdOf(r) === r.title ? [] : [settingsText(r)]),
          r.measurement?.reason ?? `verdict ${r.verdict}: no measurement finished`,
          ...[auditEventsLine(r), memoryLine(r)].filter((line) => line !== null),
          ...(comparison ? [formatComparison(comparison, input.maxRegressionPp)] : []),
          ...interferenceLines([r]),
        ],
        figures: await figures(r, input.entries[i], input.prior),
      };
    }),
  );
  const after = sections.filter((s) => !s.inOverview && s.shows(file.results));
  const page = [
    await overviewSection(file.results, sections),
    ...runSections,
    ...(await Promise.all(after.map((s) => sectionHtml(s.title, s.content(file.results))))),
  ];
  return formatHtmlReport({
    title: 'auditbench report',
    lines: [
      `Commit ${revision.commit.slice(0, 12)} on ${revision.branch}, generated ${file.generatedAt} on ${machineFingerprint(file.machine)}.`,
      ...(input.invocationId
        ? [
            `This page shows invocation ${input.invocationId.slice(0, 8)} only; results.json merges every recorded invocation (runs/index.json).`,
          ]
        : []),
    ],
    sections: page,
  });
}
