import type { ResultsFile } from '../../src/results/schema.ts';
import { formatCompletenessText } from './format-completeness.ts';
import { formatCountedText } from './format-counted.ts';
import { formatFaultsText } from './format-faults.ts';
import { formatLatencyText, latencyRows } from './format-latency.ts';
import { formatMatrix } from './format-matrix.ts';
import { formatPerEventText } from './format-per-event.ts';
import { formatSeedTableText, seedTable } from './format-seed-table.ts';
import { formatSummary } from './format-summary.ts';
import { formatSweepText, sweepGroups } from './format-sweep.ts';
import { formatVariantsText, variantGroups } from './format-variants.ts';
import { seedRuns } from './seed-runs.ts';

/** One block of the terminal summary: a heading line and its body, or null when the run has nothing for it. */
export interface TextSection {
  heading: string;
  body(file: ResultsFile): string | null;
}

const nonEmpty = (text: string): string | null => (text === '' ? null : text);

/** The terminal summary's blocks, in order; a new table is one more entry here. */
export const TERMINAL_SECTIONS: readonly TextSection[] = [
  {
    heading: 'auditbench compatibility matrix',
    body: (f) => (f.matrix && f.matrix.length > 0 ? formatMatrix(f.matrix) : null),
  },
  { heading: 'auditbench summary', body: (f) => (f.results.length > 0 ? formatSummary(f.results) : null) },
  {
    heading: 'auditbench configurations compared',
    body: (f) => {
      const groups = variantGroups(f.results);
      return groups.length > 0 ? formatVariantsText(groups) : null;
    },
  },
  {
    heading: 'auditbench overhead by threads',
    body: (f) => {
      const groups = sweepGroups(f.results);
      return groups.length > 0 ? formatSweepText(groups) : null;
    },
  },
  {
    heading: 'auditbench tail latency, plugin off and on',
    body: (f) => {
      const rows = latencyRows(f.results);
      return rows.length > 0 ? formatLatencyText(rows) : null;
    },
  },
  {
    heading: 'auditbench counted cost per transaction (callgrind)',
    body: (f) => nonEmpty(formatCountedText(f.results)),
  },
  { heading: 'auditbench completeness', body: (f) => nonEmpty(formatCompletenessText(f.results)) },
  { heading: 'auditbench faults', body: (f) => nonEmpty(formatFaultsText(f.results)) },
  { heading: 'auditbench cost per audited event', body: (f) => nonEmpty(formatPerEventText(f.results)) },
  {
    heading: "The seed's comparison, this run beside it",
    body: (f) => {
      const seed = seedTable(seedRuns(f.results));
      return seed ? formatSeedTableText(seed) : null;
    },
  },
];

/**
 * What the terminal shows after a run that measured or checked any plugin, within 120 columns: each section with
 * something to say, a blank line before its heading.
 */
export function formatTerminalReport(file: ResultsFile, sections = TERMINAL_SECTIONS): string {
  return sections
    .flatMap((section) => {
      const body = section.body(file);
      return body === null ? [] : [`\n${section.heading}\n${body}\n`];
    })
    .join('');
}
