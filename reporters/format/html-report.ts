import type { Comparison } from '../../src/history/compare.ts';
import { type HistoryEntry, machineFingerprint, type Revision } from '../../src/history/entry.ts';
import type { PluginResult, ResultsFile } from '../../src/results/schema.ts';
import { overheadSpec, timelineSpec, trendEntries, trendSpec } from '../charts/chart-specs.ts';
import { countedSpec } from '../charts/counted-spec.ts';
import { diskUseSpec } from '../charts/disk-use-spec.ts';
import { latencySpec } from '../charts/latency-spec.ts';
import { overviewSpec } from '../charts/overview-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { sweepSpec } from '../charts/sweep-spec.ts';
import { auditEventsLine } from './format-audit-events.ts';
import { formatComparison } from './format-comparison.ts';
import { completenessSection } from './format-completeness.ts';
import { countedSection } from './format-counted.ts';
import { faultsSection } from './format-faults.ts';
import { type ChartFigure, formatHtmlReport, type HtmlTable, type ReportSection } from './format-html.ts';
import { interferenceLines } from './format-interference.ts';
import { latencyRows, latencySection } from './format-latency.ts';
import { memoryLine } from './format-memory.ts';
import { perEventSection } from './format-per-event.ts';
import { lifecycleFindings, SEED_ROWS, type SeedTable, seedTable } from './format-seed-table.ts';
import { sweepGroups, sweepSection } from './format-sweep.ts';
import { runIdOf, runStatus, statusLine } from './run-status.ts';
import { seedRuns } from './seed-runs.ts';

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

/** What a run is: its plugin and settings as its title names them, and the option file it came from. */
function settingsText(r: PluginResult): string {
  const file = r.settings?.optionFile ? `; option file ${r.settings.optionFile}` : '';
  return `${r.title}${file}`;
}

/** The overview chart's legend: each run id, its status and why, and what it measured. */
function runsTable(results: readonly PluginResult[]): HtmlTable {
  return {
    caption: 'Runs',
    head: [{ text: 'run' }, { text: 'status' }, { text: 'plugin and settings' }],
    rows: results.map((r) => {
      const { status, why } = runStatus(r);
      return [runIdOf(r), why ? `${status}: ${why}` : status, settingsText(r)];
    }),
  };
}

/**
 * The opening section: every run ranked against its limit under its id, a legend of what each id is, the seed's
 * table, and what the lifecycle checks found. A run counts as failed when its overhead or a lifecycle check failed.
 */
async function overviewSection(results: readonly PluginResult[]): Promise<ReportSection> {
  const spec = overviewSpec(results);
  const seed = seedTable(seedRuns(results));
  const unmeasured = results.filter((r) => r.overheadPct === null).map(runIdOf);
  return {
    heading: 'Overview',
    lines: [
      statusLine(results),
      ...(unmeasured.length > 0 ? [`No overhead estimate: ${unmeasured.join(', ')}.`] : []),
    ],
    figures: [
      {
        name: 'overview',
        svg: spec ? await renderSvg(spec) : null,
        empty: 'No run has an overhead estimate yet.',
      },
    ],
    tables: [runsTable(results), ...(seed ? [seedHtmlTable(seed)] : [])],
    list: { heading: 'Lifecycle findings', items: results.flatMap(lifecycleFindings) },
  };
}

/** A section of index.html after the runs' own: built from the results, or null when they have nothing for it. */
export type HtmlSection = (results: PluginResult[]) => ReportSection | null | Promise<ReportSection | null>;

/** index.html's sections after each run's own, in order; a new table is one more entry here. */
export const HTML_SECTIONS: readonly HtmlSection[] = [
  async (results) => {
    const groups = sweepGroups(results);
    const spec = sweepSpec(groups);
    return sweepSection(groups, spec ? await renderSvg(spec) : null);
  },
  async (results) => {
    const spec = latencySpec(sweepGroups(results));
    return latencySection(latencyRows(results), spec ? await renderSvg(spec) : null);
  },
  (results) => completenessSection(results),
  (results) => faultsSection(results),
  async (results) => {
    const diskUse = diskUseSpec(results);
    return perEventSection(results, diskUse ? await renderSvg(diskUse) : null);
  },
  async (results) => {
    const spec = countedSpec(results);
    return countedSection(results, spec ? await renderSvg(spec) : null);
  },
];

/** index.html: an overview of every run, then per plugin and server, the TPS timeline, the overhead against the limit, and the trend. */
export async function buildHtmlReport(
  input: HtmlReportInput,
  extraSections = HTML_SECTIONS,
): Promise<string> {
  const { file, revision } = input;
  const sections: ReportSection[] = await Promise.all(
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
  sections.unshift(await overviewSection(file.results));
  for (const section of await Promise.all(extraSections.map((build) => build(file.results)))) {
    if (section) sections.push(section);
  }
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
