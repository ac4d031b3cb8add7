import type { TopLevelSpec } from 'vega-lite';
import type { PluginResult } from '../../src/results/schema.ts';
import type { ChartFigure } from './format-html.ts';

/** A table: its columns, rows of cells (the first cell heads its row) and notes under it; all of it plain text. */
export interface SectionTable {
  /** Names one of a section's tables; a table without one is the section's (the page captions it by its title). */
  caption?: string;
  /** Each column's heading, with an optional second line and a class for the page ('seed' greys a column). */
  head: { text: string; note?: string; className?: string }[];
  rows: string[][];
  /** Facts about this table's rows, a line each. */
  notes?: string[];
}

/** A chart of the page: its Vega-Lite spec, or null and what the page says instead. */
export interface SectionChart {
  name: ChartFigure['name'];
  spec: TopLevelSpec | null;
  empty: string;
}

/**
 * What a section says, in the one shape every report renders. All text is plain: each writer escapes it for its
 * own format (src/markdown for summary.md, HTML entities for the page).
 */
export interface SectionContent {
  /** What the section shows and how it was measured, the same for every run: summary.md and the page print it, the terminal keeps to the figures. */
  about?: string[];
  /** Only the page draws charts. */
  charts?: SectionChart[];
  tables?: SectionTable[];
  /** What this run found, a line each. */
  list?: string[];
}

/** One part of every report after its opening table: the terminal summary, summary.md and index.html. */
export interface Section {
  title: string;
  /** Whether the run has anything for it; a section that does not show prints nothing anywhere. */
  shows(results: readonly PluginResult[]): boolean;
  content(results: readonly PluginResult[]): SectionContent;
  /** index.html puts it in the overview at the top, where a reader looks first, not after the runs' own sections. */
  inOverview?: boolean;
}
