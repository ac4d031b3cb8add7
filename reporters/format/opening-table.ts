import type { Comparison } from '../../src/history/compare.ts';
import { observedOf } from '../../src/results/aggregate.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { auditEventsCell, eventsPerTxn, perTxnText } from './format-audit-events.ts';
import { interferenceMark } from './format-interference.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { runIdOf, runStatus } from './run-status.ts';

/** One row of the opening table: a result, and its comparison with the base branch where the report has one. */
export interface OpeningRow {
  result: PluginResult;
  comparison?: Comparison;
}

/** A cell's text in pieces; summary.md puts the `strong` ones in bold (a verdict other than pass, a regression). */
export type OpeningCell = string | { text: string; strong?: boolean }[];

/** The reports that print the opening table: the terminal (with the column's width), summary.md, index.html. */
export type OpeningReport = 'terminal' | 'markdown' | 'html';

export interface OpeningColumn {
  /** The heading; a line break splits it in the terminal, `BASE` stands for the base branch's name. */
  head: string;
  /** Where the column stands: the terminal's 120 columns hold 8 narrow ones, the page's legend 3. */
  in: { terminal?: number; markdown?: true; html?: true };
  /** The cell is figures auditbench wrote (numbers, intervals, yes/no): summary.md writes them unescaped. */
  figures?: true;
  cell(row: OpeningRow): OpeningCell;
}

const yesNo = (value: boolean | undefined): string => (value === undefined ? '?' : value ? 'yes' : 'no');

/** The result's title, with the configuration run's id when it carries one (issue 10) the title does not show. */
export function runLabel(r: PluginResult): string {
  const id = 'runId' in r ? r.runId : 'id' in r ? r.id : undefined;
  return typeof id === 'string' && id !== '' && !r.title.includes(id) ? `${r.title} (${id})` : r.title;
}

const overheadCell = (result: PluginResult): string =>
  estimateText(result.overheadPct, result.overheadCi95, '%');

const noiseCell = (result: PluginResult): string =>
  result.noiseFloorPct === null
    ? '–'
    : `±${fixed(result.noiseFloorPct)} (≥${fixed(result.minDetectablePct)})`;

export function lifecycleCell(result: PluginResult): string {
  const failed = result.lifecycle.filter((c) => !c.ok).map((c) => c.check);
  // A crash the profile expects passes its check; it must still show.
  const crashed = result.lifecycle.filter(
    (c) => typeof (c.details as { crash?: unknown } | undefined)?.crash === 'string',
  );
  const crash = crashed.length > 0 ? `; ${crashed.map((c) => c.check).join(', ')} crashed` : '';
  return `${failed.length === 0 ? `${result.lifecycle.length} ok` : `failed: ${failed.join(', ')}`}${crash}`;
}

/** Whether uninstalling took a restart in the seed's sense: one in the procedure, or the plugin listed until one. */
export function uninstallRestarts(result: PluginResult): { needs: boolean; steps: number } | undefined {
  const entry = result.lifecycle.find((c) => c.check === 'uninstall');
  if (!entry || typeof entry.observed !== 'object' || entry.observed === null) return undefined;
  const observed = entry.observed as { needsRestart?: boolean };
  const answers = (entry.details as { answers?: { step: string }[] } | undefined)?.answers ?? [];
  const steps = answers.filter((a) => a.step === 'restart the server').length;
  return { needs: observed.needsRestart === true || steps > 0, steps };
}

/** Row facts in the spirit of the seed report's conclusion. */
function facts(result: PluginResult) {
  const rotation = observedOf(result, 'rotation') as { rotatedFiles?: number[] } | undefined;
  const failed = observedOf(result, 'failed-queries') as number[] | undefined;
  return {
    rotates: rotation?.rotatedFiles ? rotation.rotatedFiles.length > 0 : undefined,
    logsFailed: Array.isArray(failed) ? failed.length > 0 : undefined,
    uninstallRestart: uninstallRestarts(result)?.needs,
  };
}

/** The verdict column: the measurement's verdict, or "not measured" where no test measured this result's overhead. */
const verdictText = (r: PluginResult): string =>
  runStatus(r).status === 'not measured' ? 'not measured' : r.verdict;

function change(c: Comparison | undefined): OpeningCell {
  if (c?.kind !== 'compared') return '–';
  const sign = c.changePp >= 0 ? '+' : '−';
  const figure = `${sign}${Math.abs(c.changePp).toFixed(1)} [${c.changeCi95[0].toFixed(1)}, ${c.changeCi95[1].toFixed(1)}]`;
  if (c.verdict === 'regressed') return [{ text: `${figure} ` }, { text: 'regressed', strong: true }];
  return c.verdict === 'inconclusive' ? `${figure} inconclusive` : figure;
}

const eventsLines = (r: PluginResult): string => {
  const events = r.measurement?.auditEvents;
  return events ? `\n${perTxnText(eventsPerTxn(events))}${events.idle ? ' IDLE' : ''}` : '';
};

/** What a run is: its plugin and settings as its title names them, and the option file it came from. */
export function settingsText(r: PluginResult): string {
  const file = r.settings?.optionFile ? `; option file ${r.settings.optionFile}` : '';
  return `${r.title}${file}`;
}

/**
 * The opening table, one row per run × server × workload, declared once: the terminal summary, summary.md and
 * index.html's legend each print the columns that stand in them, in this order. The terminal's widths sum to 111:
 * with 9 borders, 120 columns; its cells wrap inside their column.
 */
export const OPENING_COLUMNS: readonly OpeningColumn[] = [
  { head: 'run', in: { terminal: 18, html: true }, cell: ({ result }) => runIdOf(result) },
  {
    head: 'status',
    in: { html: true },
    cell: ({ result }) => {
      const { status, why } = runStatus(result);
      return why ? `${status}: ${why}` : status;
    },
  },
  { head: 'plugin and settings', in: { html: true }, cell: ({ result }) => settingsText(result) },
  { head: 'plugin', in: { markdown: true }, cell: ({ result }) => runLabel(result) },
  {
    head: 'server',
    in: { markdown: true },
    cell: ({ result: { server } }) => `${server.flavor} ${server.version} (${server.target})`,
  },
  { head: 'workload', in: { markdown: true }, cell: ({ result }) => result.workload },
  {
    head: 'server, workload',
    in: { terminal: 18 },
    cell: ({ result: r }) =>
      `${r.server.flavor} ${r.server.version.split('-')[0]}\n${r.server.target}, ${r.workload}`,
  },
  {
    head: 'baseline TPS',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => fixed(result.baselineTps),
  },
  {
    head: 'plugin TPS',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => fixed(result.pluginTps),
  },
  {
    head: 'overhead % [95% CI]',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => estimateText(result.overheadPct, result.overheadCi95),
  },
  {
    head: 'overhead % [95% CI]',
    in: { terminal: 21 },
    cell: ({ result: r }) =>
      `${overheadCell(r)}${r.noiseFloorPct === null ? '' : `\nA/A ±${fixed(r.noiseFloorPct)}`}`,
  },
  { head: 'limit', in: { terminal: 7 }, cell: ({ result }) => `${fixed(result.limitPct, 0)}%` },
  { head: 'limit %', in: { markdown: true }, figures: true, cell: ({ result }) => fixed(result.limitPct, 0) },
  {
    head: 'verdict',
    in: { terminal: 14, markdown: true },
    cell: ({ result }) => [
      { text: verdictText(result), strong: result.verdict !== 'pass' },
      { text: interferenceMark(result) },
    ],
  },
  {
    head: 'TPS\noff → on',
    in: { terminal: 10 },
    cell: ({ result }) => `${fixed(result.baselineTps)} →\n${fixed(result.pluginTps)}`,
  },
  {
    head: 'A/A noise ± % (detectable)',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => noiseCell(result),
  },
  {
    head: 'vs BASE (pp)',
    in: { markdown: true },
    figures: true,
    cell: ({ comparison }) => change(comparison),
  },
  {
    head: 'log MB/min',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => fixed(result.measurement?.logMbPerMin),
  },
  {
    head: 'log bytes/txn',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => fixed(result.logBytesPerTxn, 0),
  },
  { head: 'audit events/txn', in: { markdown: true }, cell: ({ result }) => auditEventsCell(result) },
  {
    head: 'log MB/min\nB/txn\nevents/txn',
    in: { terminal: 12 },
    cell: ({ result: r }) =>
      `${fixed(r.measurement?.logMbPerMin)}\n${fixed(r.logBytesPerTxn, 0)} B/txn${eventsLines(r)}`,
  },
  {
    head: 'rotates?',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => yesNo(facts(result).rotates),
  },
  {
    head: 'logs failed statements?',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => yesNo(facts(result).logsFailed),
  },
  {
    head: 'uninstall needs restart?',
    in: { markdown: true },
    figures: true,
    cell: ({ result }) => yesNo(facts(result).uninstallRestart),
  },
  { head: 'lifecycle', in: { terminal: 11, markdown: true }, cell: ({ result }) => lifecycleCell(result) },
];

/** The columns one report prints, in the declared order. */
export const openingColumns = (report: OpeningReport, columns = OPENING_COLUMNS): OpeningColumn[] =>
  columns.filter((c) => c.in[report] !== undefined);

/** A cell as plain text, for the terminal and the page. */
export const plainCell = (cell: OpeningCell): string =>
  typeof cell === 'string' ? cell : cell.map((piece) => piece.text).join('');
