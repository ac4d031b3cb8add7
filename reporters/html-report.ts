import type { Comparison } from '../src/history/compare.ts';
import { type HistoryEntry, machineFingerprint, type Revision } from '../src/history/entry.ts';
import type { PluginResult, ResultsFile } from '../src/results/schema.ts';
import { overheadSpec, timelineSpec, trendEntries, trendSpec } from './chart-specs.ts';
import { formatComparison } from './format-comparison.ts';
import { type ChartFigure, formatHtmlReport, type ReportSection } from './format-html.ts';
import { renderSvg } from './render-chart.ts';

export interface HtmlReportInput {
  file: ResultsFile;
  revision: Revision;
  /** This run's history entries and comparisons, one per result in file.results order. */
  entries: HistoryEntry[];
  comparisons: Comparison[];
  /** The history before this run. */
  prior: HistoryEntry[];
  maxRegressionPp: number | null;
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

/** index.html: per plugin and server, the TPS timeline, the overhead against the limit, and the trend. */
export async function buildHtmlReport(input: HtmlReportInput): Promise<string> {
  const { file, revision } = input;
  const sections: ReportSection[] = await Promise.all(
    file.results.map(async (r, i) => {
      const comparison = input.comparisons[i];
      return {
        heading: `${r.title} · ${r.server.flavor} ${r.server.version} (${r.server.target}) · ${r.workload}`,
        lines: [
          r.measurement?.reason ?? `verdict ${r.verdict}: no measurement finished`,
          ...(comparison ? [formatComparison(comparison, input.maxRegressionPp)] : []),
        ],
        figures: await figures(r, input.entries[i], input.prior),
      };
    }),
  );
  return formatHtmlReport({
    title: 'auditbench report',
    lines: [
      `Commit ${revision.commit.slice(0, 12)} on ${revision.branch}, generated ${file.generatedAt} on ${machineFingerprint(file.machine)}.`,
    ],
    sections,
  });
}
