import type { Comparison } from '../../src/history/compare.ts';
import type { Revision } from '../../src/history/entry.ts';
import { mdCode, mdText } from '../../src/markdown/markdown.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { auditEventsCell, auditEventsLine } from './format-audit-events.ts';
import { formatComparison } from './format-comparison.ts';
import { formatCompletenessMarkdown } from './format-completeness.ts';
import { formatCountedMarkdown } from './format-counted.ts';
import { formatFaultsMarkdown } from './format-faults.ts';
import { interferenceLines, interferenceMark } from './format-interference.ts';
import { formatLatencyMarkdown, latencyRows } from './format-latency.ts';
import { memoryLine } from './format-memory.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { formatPerEventMarkdown } from './format-per-event.ts';
import { formatSeedTableMarkdown, seedTable } from './format-seed-table.ts';
import { facts, lifecycleCell, noiseCell, runLabel, yesNo } from './format-summary.ts';
import { formatSweepMarkdown, sweepGroups } from './format-sweep.ts';
import { formatVariantsMarkdown, variantGroups } from './format-variants.ts';
import { statusLine } from './run-status.ts';
import { seedRuns } from './seed-runs.ts';

export interface MarkdownInput {
  results: PluginResult[];
  /** One per result, in the same order (toHistoryEntries and compareWithBase keep it). */
  comparisons: Comparison[];
  revision: Revision;
  baseBranch: string;
  generatedAt: string;
  fingerprint: string;
  maxRegressionPp: number | null;
  /** The counted comparisons with the base branch, one line each (src/history/counted-compare.ts). */
  countedLines?: string[];
  gateLine: string;
  /** This run's id: summary.md shows this run only, while results.json merges every recorded run. */
  runId?: string;
}

const overhead = (r: PluginResult): string => estimateText(r.overheadPct, r.overheadCi95);

function change(c: Comparison | undefined): string {
  if (c?.kind !== 'compared') return '–';
  const sign = c.changePp >= 0 ? '+' : '−';
  const ci = `[${c.changeCi95[0].toFixed(1)}, ${c.changeCi95[1].toFixed(1)}]`;
  const marker =
    c.verdict === 'regressed' ? ' **regressed**' : c.verdict === 'inconclusive' ? ' inconclusive' : '';
  return `${sign}${Math.abs(c.changePp).toFixed(1)} ${ci}${marker}`;
}

const HEAD = [
  'plugin',
  'server',
  'workload',
  'baseline TPS',
  'plugin TPS',
  'overhead % [95% CI]',
  'limit %',
  'verdict',
  'A/A noise ± % (detectable)',
  'vs BASE (pp)',
  'log MB/min',
  'log bytes/txn',
  'audit events/txn',
  'rotates?',
  'logs failed statements?',
  'uninstall needs restart?',
  'lifecycle',
];

/** A block of summary.md after the main table: its lines (ending in a blank one), or none. */
export type MarkdownSection = (results: PluginResult[]) => string[];

/** summary.md's blocks between the main table and the comparisons, in order; a new table is one more entry here. */
export const MARKDOWN_SECTIONS: readonly MarkdownSection[] = [
  (results) => formatVariantsMarkdown(variantGroups(results)),
  (results) => formatSweepMarkdown(sweepGroups(results)),
  (results) => formatLatencyMarkdown(latencyRows(results)),
  (results) => {
    const seed = seedTable(seedRuns(results));
    return seed
      ? ["### The seed's comparison, this run beside it", '', formatSeedTableMarkdown(seed), '']
      : [];
  },
  (results) => {
    const completeness = formatCompletenessMarkdown(results);
    return completeness ? [completeness] : [];
  },
  (results) => {
    const faults = formatFaultsMarkdown(results);
    return faults ? [faults] : [];
  },
  (results) => formatPerEventMarkdown(results),
  (results) => formatCountedMarkdown(results),
];

/** summary.md, also appended to GitHub's job summary: the full table, the seed's comparison, the comparisons, the gate. */
export function formatMarkdownSummary(input: MarkdownInput, sections = MARKDOWN_SECTIONS): string {
  const { results, comparisons, revision, baseBranch } = input;
  const head = `| ${HEAD.map((h) => h.replace('BASE', mdText(baseBranch))).join(' | ')} |`;
  // Names, versions, titles and what the server or the log said are outside text; the figures are ours.
  const rows = results.map((r, i) => {
    const f = facts(r);
    return [
      mdText(runLabel(r)),
      mdText(`${r.server.flavor} ${r.server.version} (${r.server.target})`),
      mdText(r.workload),
      fixed(r.baselineTps),
      fixed(r.pluginTps),
      overhead(r),
      fixed(r.limitPct, 0),
      `${r.verdict === 'pass' ? 'pass' : `**${mdText(r.verdict)}**`}${mdText(interferenceMark(r))}`,
      noiseCell(r),
      change(comparisons[i]),
      fixed(r.measurement?.logMbPerMin),
      fixed(r.logBytesPerTxn, 0),
      mdText(auditEventsCell(r)),
      yesNo(f.rotates),
      yesNo(f.logsFailed),
      yesNo(f.uninstallRestart),
      mdText(lifecycleCell(r)),
    ].join(' | ');
  });
  const reasons = results.flatMap((r) => {
    const more = [auditEventsLine(r), memoryLine(r)].filter((line) => line !== null);
    return r.measurement
      ? [
          `- ${mdText(runLabel(r))}: ${mdText(r.measurement.reason)}`,
          ...more.map((line) => `  - ${mdText(line)}`),
        ]
      : [];
  });
  const interference = interferenceLines(results).map((line) => `- ${mdText(line)}`);
  if (interference.length > 0) interference.push('');
  return [
    '## auditbench',
    '',
    `Commit ${mdCode(revision.commit.slice(0, 12))} on ${mdCode(revision.branch)}, ${mdText(input.generatedAt)}, ${mdText(input.fingerprint)}.${input.runId ? ` This page shows run ${mdCode(input.runId.slice(0, 8))} only; \`results.json\` merges every recorded run (\`runs/index.json\`).` : ''}`,
    '',
    `**${mdText(statusLine(results))}**`,
    '',
    head,
    `|${' --- |'.repeat(HEAD.length)}`,
    ...rows.map((row) => `| ${row} |`),
    '',
    ...reasons,
    '',
    ...interference,
    ...sections.flatMap((section) => section(results)),
    `### Compared with ${mdText(baseBranch)}`,
    '',
    ...comparisons.map((c) => `- ${mdText(formatComparison(c, input.maxRegressionPp))}`),
    ...(input.countedLines ?? []).map((l) => `- ${mdText(l)}`),
    '',
    `**${mdText(input.gateLine)}**`,
    '',
  ].join('\n');
}
