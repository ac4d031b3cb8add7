import Table from 'cli-table3';
import type { PluginResult } from '../../src/results/schema.ts';
import { whereExplained } from '../../src/results/when-it-fails.ts';
import { auditEventsLine } from './format-audit-events.ts';
import { interferenceLines } from './format-interference.ts';
import { memoryLine } from './format-memory.ts';
import { openingColumns, plainCell } from './opening-table.ts';
import { failureKindsOf, runIdOf, statusLine } from './run-status.ts';

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

/** Under the table: what each run id is, once per id, for the ids that are not their title already. */
function runTitles(results: PluginResult[], widthCols: number): string[] {
  const titles = new Map(results.filter((r) => runIdOf(r) !== r.title).map((r) => [runIdOf(r), r.title]));
  if (titles.size === 0) return [];
  return ['runs:', ...[...titles].map(([id, title]) => wrapText(`- ${id}: ${title}`, widthCols, '  '))];
}

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
  const columns = openingColumns('terminal');
  const table = new Table({
    head: columns.map((c) => c.head),
    colWidths: columns.map((c) => c.in.terminal ?? 0),
    wordWrap: true,
    style: { head: [], border: [] },
  });
  for (const result of results) table.push(columns.map((c) => plainCell(c.cell({ result }))));
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
