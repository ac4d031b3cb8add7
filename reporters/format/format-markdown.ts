import type { Comparison } from '../../src/history/compare.ts';
import type { Revision } from '../../src/history/entry.ts';
import { mdCode, mdText } from '../../src/markdown/markdown.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { whereExplained } from '../../src/results/when-it-fails.ts';
import { auditEventsLine } from './format-audit-events.ts';
import { formatComparison } from './format-comparison.ts';
import { interferenceLines } from './format-interference.ts';
import { memoryLine } from './format-memory.ts';
import { type OpeningColumn, type OpeningRow, openingColumns, runLabel } from './opening-table.ts';
import { failureKindsOf, statusLine } from './run-status.ts';
import type { Section, SectionContent } from './section.ts';
import { SECTIONS } from './sections.ts';

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
  /** This invocation's id: summary.md shows this invocation only, while results.json merges every recorded one. */
  invocationId?: string;
}

/** A cell in summary.md: outside text escaped, auditbench's own figures as they are, the strong pieces in bold. */
function mdCell(column: OpeningColumn, row: OpeningRow): string {
  const cell = column.cell(row);
  const text = (t: string) => (column.figures ? t : mdText(t));
  if (typeof cell === 'string') return text(cell);
  return cell.map((p) => (p.strong && p.text !== '' ? `**${text(p.text)}**` : text(p.text))).join('');
}

const mdRow = (cells: readonly string[]): string => `| ${cells.map(mdText).join(' | ')} |`;

/** A section in summary.md: its title, what it shows, then each table (caption, rows, notes) and its list. */
export function sectionMarkdown(title: string, content: SectionContent): string[] {
  const paragraphs = (content.about ?? []).flatMap((p) => [mdText(p), '']);
  const tables = (content.tables ?? []).flatMap((t) => [
    ...(t.caption ? [`**${mdText(t.caption)}**`, ''] : []),
    mdRow(t.head.map((h) => (h.note ? `${h.text} (${h.note})` : h.text))),
    `|${' --- |'.repeat(t.head.length)}`,
    ...t.rows.map(mdRow),
    '',
    ...(t.notes && t.notes.length > 0 ? [...t.notes.map((n) => `- ${mdText(n)}`), ''] : []),
  ]);
  const list =
    content.list && content.list.length > 0 ? [...content.list.map((l) => `- ${mdText(l)}`), ''] : [];
  return [`### ${mdText(title)}`, '', ...paragraphs, ...tables, ...list];
}

/** One section's lines in summary.md (ending in a blank one), or none when the run has nothing for it. */
export const formatSectionMarkdown = (section: Section, results: readonly PluginResult[]): string[] =>
  section.shows(results) ? sectionMarkdown(section.title, section.content(results)) : [];

/** Under the status line, where the kinds that failed are explained: the terminal's line, as markdown. */
function explainedMd(results: readonly PluginResult[]): string[] {
  const line = whereExplained(results.flatMap(failureKindsOf));
  return line ? [mdText(line), ''] : [];
}

/** summary.md, also appended to GitHub's job summary: the full table, the seed's comparison, the comparisons, the gate. */
export function formatMarkdownSummary(input: MarkdownInput, sections = SECTIONS): string {
  const { results, comparisons, revision, baseBranch } = input;
  const columns = openingColumns('markdown');
  const head = `| ${columns.map((c) => c.head.replace('BASE', mdText(baseBranch))).join(' | ')} |`;
  // Names, versions, titles and what the server or the log said are outside text; the figures are ours.
  const rows = results.map((result, i) =>
    columns.map((c) => mdCell(c, { result, comparison: comparisons[i] })),
  );
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
    `Commit ${mdCode(revision.commit.slice(0, 12))} on ${mdCode(revision.branch)}, ${mdText(input.generatedAt)}, ${mdText(input.fingerprint)}.${input.invocationId ? ` This page shows invocation ${mdCode(input.invocationId.slice(0, 8))} only; \`results.json\` merges every recorded invocation (\`runs/index.json\`).` : ''}`,
    '',
    `**${mdText(statusLine(results))}**`,
    '',
    ...explainedMd(results),
    head,
    `|${' --- |'.repeat(columns.length)}`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    ...reasons,
    '',
    ...interference,
    ...sections.flatMap((section) => formatSectionMarkdown(section, results)),
    `### Compared with ${mdText(baseBranch)}`,
    '',
    ...comparisons.map((c) => `- ${mdText(formatComparison(c, input.maxRegressionPp))}`),
    ...(input.countedLines ?? []).map((l) => `- ${mdText(l)}`),
    '',
    `**${mdText(input.gateLine)}**`,
    '',
  ].join('\n');
}
