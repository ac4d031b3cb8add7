import type { PluginResult, ResultsFile } from '../../src/results/schema.ts';
import { formatMatrix } from './format-matrix.ts';
import { formatSummary, wrapText } from './format-summary.ts';
import type { Section, SectionContent } from './section.ts';
import { SECTIONS } from './sections.ts';
import { textTable } from './text-table.ts';

const WIDTH_COLS = 120;

const item = (line: string): string => wrapText(`- ${line}`, WIDTH_COLS, '  ');

/** A section's body for the terminal: its tables (each caption above, notes under) and its list; no prose or charts. */
export function sectionText(content: SectionContent): string {
  const tables = (content.tables ?? []).map((t) =>
    [
      ...(t.caption ? [wrapText(t.caption, WIDTH_COLS, '  ')] : []),
      textTable(t, WIDTH_COLS),
      ...(t.notes ?? []).map(item),
    ].join('\n'),
  );
  const list = (content.list ?? []).map(item).join('\n');
  return [...tables, ...(list ? [list] : [])].join('\n\n');
}

/** One section as the terminal prints it, a blank line before its title; null when the run has nothing for it. */
export function formatSectionText(section: Section, results: readonly PluginResult[]): string | null {
  return section.shows(results) ? `\n${section.title}\n${sectionText(section.content(results))}\n` : null;
}

/**
 * What the terminal shows after a run that measured or checked any plugin, within 120 columns: the compatibility
 * matrix, the summary, then each section with something to say.
 */
export function formatTerminalReport(file: ResultsFile, sections = SECTIONS): string {
  const opening = [
    ...(file.matrix && file.matrix.length > 0
      ? [`\nauditbench compatibility matrix\n${formatMatrix(file.matrix)}\n`]
      : []),
    ...(file.results.length > 0 ? [`\nauditbench summary\n${formatSummary(file.results)}\n`] : []),
  ];
  return [...opening, ...sections.map((s) => formatSectionText(s, file.results))]
    .filter((block) => block !== null)
    .join('');
}
