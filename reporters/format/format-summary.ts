import Table from 'cli-table3';
import { observedOf } from '../../src/results/aggregate.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { whereExplained } from '../../src/results/when-it-fails.ts';
import { auditEventsLine, eventsPerTxn, perTxnText } from './format-audit-events.ts';
import { interferenceLines, interferenceMark } from './format-interference.ts';
import { memoryLine } from './format-memory.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { failureKindsOf, runIdOf, runStatus, statusLine } from './run-status.ts';

export const yesNo = (value: boolean | undefined): string =>
  value === undefined ? '?' : value ? 'yes' : 'no';

/** The result's title, with the configuration run's id when it carries one (issue 10) the title does not show. */
export function runLabel(r: PluginResult): string {
  const id = 'runId' in r ? r.runId : 'id' in r ? r.id : undefined;
  return typeof id === 'string' && id !== '' && !r.title.includes(id) ? `${r.title} (${id})` : r.title;
}

/** `mariadb 10.11.19 (local)`: the version up to its first dash, which is what tells servers apart. */
export const serverLabel = (r: PluginResult): string =>
  `${r.server.flavor} ${r.server.version.split('-')[0]} (${r.server.target})`;

/** Word-wraps one line to widthCols, continuation lines indented; a word longer than a line is cut. */
export function wrapText(text: string, widthCols: number, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    const prefix = () => (lines.length === 0 ? '' : indent);
    while (prefix().length + word.length > widthCols) {
      if (line) {
        lines.push(prefix() + line);
        line = '';
        continue;
      }
      const room = widthCols - prefix().length;
      lines.push(prefix() + word.slice(0, room));
      word = word.slice(room);
    }
    if (line && prefix().length + line.length + 1 + word.length > widthCols) {
      lines.push(prefix() + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push((lines.length === 0 ? '' : indent) + line);
  return lines.join('\n');
}

export const overheadCell = (result: PluginResult): string =>
  estimateText(result.overheadPct, result.overheadCi95, '%');

export const noiseCell = (result: PluginResult): string =>
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
export function facts(result: PluginResult) {
  const rotation = observedOf(result, 'rotation') as { rotatedFiles?: number[] } | undefined;
  const failed = observedOf(result, 'failed-queries') as number[] | undefined;
  return {
    rotates: rotation?.rotatedFiles ? rotation.rotatedFiles.length > 0 : undefined,
    logsFailed: Array.isArray(failed) ? failed.length > 0 : undefined,
    uninstallRestart: uninstallRestarts(result)?.needs,
  };
}

const eventsCell = (r: PluginResult): string => {
  const events = r.measurement?.auditEvents;
  return events ? `\n${perTxnText(eventsPerTxn(events))}${events.idle ? ' IDLE' : ''}` : '';
};

// Sums to 111: with 9 borders, 120 columns. Cells wrap inside their column.
const COLUMNS: [string, number][] = [
  ['run', 18],
  ['server, workload', 18],
  ['overhead % [95% CI]', 21],
  ['limit', 7],
  ['verdict', 14],
  ['TPS\noff → on', 10],
  ['log MB/min\nB/txn\nevents/txn', 12],
  ['lifecycle', 11],
];

/** Under the table: what each run id is, once per id, for the ids that are not their title already. */
function runTitles(results: PluginResult[], widthCols: number): string[] {
  const titles = new Map(results.filter((r) => runIdOf(r) !== r.title).map((r) => [runIdOf(r), r.title]));
  if (titles.size === 0) return [];
  return ['runs:', ...[...titles].map(([id, title]) => wrapText(`- ${id}: ${title}`, widthCols, '  '))];
}

/** The verdict column: the measurement's verdict, or "not measured" where no test measured this result's overhead. */
const verdictCell = (r: PluginResult): string =>
  runStatus(r).status === 'not measured' ? 'not measured' : r.verdict;

/** Under the status line, where the kinds that failed or put a figure in doubt are explained; nothing for clean passes. */
function explained(results: readonly PluginResult[], widthCols: number): string[] {
  const line = whereExplained(results.flatMap(failureKindsOf));
  return line ? [wrapText(line, widthCols, '  ')] : [];
}

/**
 * The terminal summary, at most 120 columns: one row per run id × server × workload, what each id is, then each
 * measurement's verdict in words. The full table (every figure and fact) is in summary.md and results.json.
 */
export function formatSummary(results: PluginResult[], widthCols = 120): string {
  const table = new Table({
    head: COLUMNS.map(([name]) => name),
    colWidths: COLUMNS.map(([, width]) => width),
    wordWrap: true,
    style: { head: [], border: [] },
  });
  for (const r of results) {
    const noise = r.noiseFloorPct === null ? '' : `\nA/A ±${fixed(r.noiseFloorPct)}`;
    const [version] = r.server.version.split('-');
    table.push([
      runIdOf(r),
      `${r.server.flavor} ${version}\n${r.server.target}, ${r.workload}`,
      `${overheadCell(r)}${noise}`,
      `${fixed(r.limitPct, 0)}%`,
      `${verdictCell(r)}${interferenceMark(r)}`,
      `${fixed(r.baselineTps)} →\n${fixed(r.pluginTps)}`,
      `${fixed(r.measurement?.logMbPerMin)}\n${fixed(r.logBytesPerTxn, 0)} B/txn${eventsCell(r)}`,
      lifecycleCell(r),
    ]);
  }
  // Each measurement's verdict in words, then what its configuration logged.
  const reasons = results.flatMap((r) => {
    if (!r.measurement) return [];
    const more = [auditEventsLine(r), memoryLine(r)].filter((line) => line !== null);
    return [r.measurement.reason, ...more].map((line) =>
      wrapText(`- ${runIdOf(r)} on ${serverLabel(r)}: ${line}`, widthCols, '  '),
    );
  });
  const interference = interferenceLines(results).map((line) => wrapText(`- ${line}`, widthCols, '  '));
  return [
    table.toString(),
    ...runTitles(results, widthCols),
    wrapText(statusLine(results), widthCols, '  '),
    ...explained(results, widthCols),
    ...reasons,
    ...interference,
  ].join('\n');
}
