import type { Comparison } from '../src/history/compare.ts';
import type { Revision } from '../src/history/entry.ts';
import type { PluginResult } from '../src/results/schema.ts';
import { formatComparison } from './format-comparison.ts';

export interface MarkdownInput {
  results: PluginResult[];
  /** One per result, in the same order (toHistoryEntries and compareWithBase keep it). */
  comparisons: Comparison[];
  revision: Revision;
  baseBranch: string;
  generatedAt: string;
  fingerprint: string;
  maxRegressionPp: number | null;
  gateLine: string;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const fixed = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

function overhead(r: PluginResult): string {
  if (r.overheadPct === null) return '–';
  const ci = r.overheadCi95 ? ` [${fixed(r.overheadCi95[0])}, ${fixed(r.overheadCi95[1])}]` : '';
  return `${fixed(r.overheadPct)}${ci}`;
}

function change(c: Comparison | undefined): string {
  if (c?.kind !== 'compared') return '–';
  const sign = c.changePp >= 0 ? '+' : '−';
  const ci = `[${c.changeCi95[0].toFixed(1)}, ${c.changeCi95[1].toFixed(1)}]`;
  const marker =
    c.verdict === 'regressed' ? ' **regressed**' : c.verdict === 'inconclusive' ? ' inconclusive' : '';
  return `${sign}${Math.abs(c.changePp).toFixed(1)} ${ci}${marker}`;
}

function lifecycle(r: PluginResult): string {
  const failed = r.lifecycle.filter((c) => !c.ok).map((c) => c.check);
  return failed.length === 0 ? `${r.lifecycle.length} ok` : `failed: ${failed.join(', ')}`;
}

/** summary.md, also appended to GitHub's job summary: a table per run, the comparisons, the gate's verdict. */
export function formatMarkdownSummary(input: MarkdownInput): string {
  const { results, comparisons, revision, baseBranch } = input;
  const head = `| plugin | server | workload | overhead % [95% CI] | limit % | verdict | A/A noise ± % | vs ${cell(baseBranch)} (pp) | lifecycle |`;
  const rows = results.map((r, i) =>
    [
      r.title,
      `${r.server.flavor} ${r.server.version} (${r.server.target})`,
      r.workload,
      overhead(r),
      fixed(r.limitPct, 0),
      r.verdict === 'pass' ? 'pass' : `**${r.verdict}**`,
      fixed(r.noiseFloorPct),
      change(comparisons[i]),
      lifecycle(r),
    ]
      .map(cell)
      .join(' | '),
  );
  const reasons = results.flatMap((r) =>
    r.measurement ? [`- ${cell(r.title)}: ${r.measurement.reason}`] : [],
  );
  return [
    '## auditbench',
    '',
    `Commit \`${revision.commit.slice(0, 12)}\` on \`${revision.branch}\`, ${input.generatedAt}, ${input.fingerprint}.`,
    '',
    head,
    `|${' --- |'.repeat(9)}`,
    ...rows.map((row) => `| ${row} |`),
    '',
    ...reasons,
    '',
    `### Compared with ${baseBranch}`,
    '',
    ...comparisons.map((c) => `- ${formatComparison(c, input.maxRegressionPp)}`),
    '',
    `**${input.gateLine}**`,
    '',
  ].join('\n');
}
