// `auditbench history` in a terminal and as JSON: pure functions of the trends (src/history/trend.ts). Every value
// from a history line is outside text: it is printed on one line, its controls escaped (src/markdown, oneLine).
import { oneLine } from '../markdown/markdown.ts';
import type { RunTrend, TrendRow } from './trend.ts';

const signed = (v: number, digits: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}`;

function wallClock(row: TrendRow): string {
  const e = row.entry;
  if (e.overheadPct === null) return `no figure (${e.verdict})`;
  const ci = e.overheadCi95 ? ` [${e.overheadCi95[0].toFixed(1)}, ${e.overheadCi95[1].toFixed(1)}]` : '';
  return `${e.overheadPct.toFixed(1)}%${ci}`;
}

function countedFigures(row: TrendRow): string {
  const c = row.entry.counted;
  if (!c) return 'not counted';
  const ci = c.instructionsPctCi95
    ? ` [${c.instructionsPctCi95[0].toFixed(2)}, ${c.instructionsPctCi95[1].toFixed(2)}]`
    : '';
  return `${signed(c.instructionsPct, 2)}% instr${ci}, ${signed(c.writeCallsAddedPerTx, 1)} writes, ${signed(c.logBytesNetAddedPerTx, 0)} log B /tx`;
}

const mark = (row: TrendRow): string =>
  [row.wallClockFailed ? 'FAILED (wall clock)' : '', row.countedFailed ? 'FAILED (counted)' : '']
    .filter(Boolean)
    .join(', ');

/** One block per run: a header, then one line per entry, oldest first, `✗` where the history check failed. */
export function formatTrends(trends: readonly RunTrend[], source: string): string {
  if (trends.length === 0) return `auditbench history: no entry in ${oneLine(source)}\n`;
  const blocks = trends.map((t) => {
    const lines = t.rows.map((row) => {
      const e = row.entry;
      const failed = mark(row);
      const cells = [
        oneLine(e.commit.slice(0, 7)),
        oneLine(e.recordedAt.slice(0, 16).replace('T', ' ')),
        oneLine(e.branch),
        oneLine(e.workload),
        oneLine(e.fingerprint),
        `wall clock ${wallClock(row)}`,
        `counted ${countedFigures(row)}`,
        failed,
      ].filter((cell) => cell !== '');
      return `${failed ? '✗' : ' '} ${cells.join(' · ')}`;
    });
    return [`run ${oneLine(t.run)} (last ${t.rows.length}):`, ...lines.map((l) => `  ${l}`)].join('\n');
  });
  return `auditbench history: ${oneLine(source)}\n${blocks.join('\n')}\n`;
}

/** The same as one JSON document for scripts: { source, runs: [{ run, entries: [entry + failed marks] }] }. */
export function trendsJson(trends: readonly RunTrend[], source: string): string {
  const runs = trends.map((t) => ({
    run: t.run,
    entries: t.rows.map((row) => ({
      ...row.entry,
      historyCheck: { wallClockFailed: row.wallClockFailed, countedFailed: row.countedFailed },
    })),
  }));
  return `${JSON.stringify({ source, runs }, null, 2)}\n`;
}
