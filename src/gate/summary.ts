// The gate's Markdown summary (<report dir>/gate.md, which the Action publishes on the pull request): the verdicts,
// base beside head, and beside them the base branch's trend, read from history.jsonl, where pushes to the base
// branch append their runs (action/measure.sh). The pull request's head has no history of its own: its verdict comes
// from its own invocation; the trend says where the base branch stood, by counts on any machine and by the wall
// clock on the machine that ran it. Pure: the command reads the history and writes the file.
import { baseBranchOf } from '../history/compare.ts';
import type { HistoryEntry } from '../history/entry.ts';
import { mdCode, mdFence, mdText } from '../markdown/markdown.ts';

export interface GateSummaryInput {
  /** The selection's lines as the command printed them (first: files changed since the base). */
  selection: string[];
  /** The closing lines, one per verdict (`auditbench gate: FAILED: …`), or the "nothing to measure" line. */
  verdicts: { mark: string; line: string }[];
  /** The vitest run's exit code; null when nothing was measured. */
  exitCode: number | null;
  baseRef: string;
  /** The runs the selection names, first in the trend; then every other run the base branch has entries of. */
  runIds: string[];
  history: readonly HistoryEntry[];
  /** Entries per run in the trend table, newest first. */
  trendLength?: number;
}

const signed = (v: number, digits: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}`;
const interval = (ci: [number, number] | null, digits: number) =>
  ci ? ` [${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : '';

/** The wall-clock cell (Markdown): the overhead and its interval, on which workload. */
function wallClock(e: HistoryEntry): string {
  if (e.overheadPct === null || e.verdict === 'idle') return `${mdText(e.verdict)} (no figure)`;
  return `${e.overheadPct.toFixed(1)}%${interval(e.overheadCi95, 1)} on ${mdText(e.workload)}`;
}

/** The counted cell (Markdown, figures only): what the plugin adds per transaction, or why there is nothing. */
function counted(e: HistoryEntry): string {
  const c = e.counted;
  if (!c) return 'not counted';
  return `${signed(c.instructionsPct, 2)}% instructions${interval(c.instructionsPctCi95, 2)}, ${signed(c.writeCallsAddedPerTx, 1)} writes, ${signed(c.logBytesNetAddedPerTx, 0)} log bytes per transaction`;
}

/** The base branch's entries of one run, newest first. */
export function trendOf(history: readonly HistoryEntry[], runId: string, baseBranch: string): HistoryEntry[] {
  return history
    .filter((e) => e.branch === baseBranch && (e.runId ?? e.title) === runId)
    .sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
}

const headline = (input: GateSummaryInput): string => {
  if (input.exitCode === null) return 'nothing to measure';
  if (input.verdicts.some((v) => v.mark === 'FAILED') || input.exitCode !== 0) return 'FAILED';
  return 'passed';
};

/** One row of the trend: every cell from history.jsonl, which is outside text, escaped. */
const trendRow = (runId: string, e: HistoryEntry): string =>
  `| ${[
    mdText(runId),
    mdCode(e.commit.slice(0, 7)),
    mdText(e.recordedAt.slice(0, 16).replace('T', ' ')),
    mdText(e.hostname ?? e.fingerprint),
    wallClock(e),
    counted(e),
  ].join(' | ')} |`;

/**
 * The Markdown the Action appends to the job summary of a pull request. Run ids, option names and values, the branch
 * and the history's lines come from the pull request: they are escaped (src/markdown), fences included.
 */
export function formatGateSummary(input: GateSummaryInput): string {
  const rawBase = baseBranchOf(input.baseRef);
  const baseBranch = mdText(rawBase);
  const out = [`## auditbench gate: ${headline(input)}`, '', ...mdFence(input.selection), ''];
  // A verdict's line carries its design's line after a newline of its own: each is a line of the fence.
  if (input.verdicts.length > 0) out.push(...mdFence(input.verdicts.flatMap((v) => v.line.split('\n'))), '');
  else if (input.exitCode !== null && input.exitCode !== 0)
    out.push(`The measurement exited ${input.exitCode} before any verdict; the job's log says why.`, '');
  out.push(`### ${baseBranch}'s trend (history.jsonl)`, '');
  const recorded = input.history.filter((e) => e.branch === rawBase).map((e) => e.runId ?? e.title);
  const runIds = [...new Set([...input.runIds, ...recorded])];
  if (runIds.length === 0) {
    out.push(
      `No run selected and no entry on ${baseBranch} in history.jsonl yet: a push to ${baseBranch} measures the configured runs and records them.`,
    );
    return `${out.join('\n')}\n`;
  }
  const rows: string[] = [];
  const missing: string[] = [];
  for (const runId of runIds) {
    const entries = trendOf(input.history, runId, rawBase).slice(0, input.trendLength ?? 5);
    if (entries.length === 0) missing.push(mdText(runId));
    for (const e of entries) rows.push(trendRow(runId, e));
  }
  if (rows.length > 0) {
    out.push(
      `What each run cost on ${baseBranch} when pushes measured it, newest first. Counted figures compare across machines; wall-clock ones only on the machine that measured them.`,
      '',
      '| run | commit | recorded (UTC) | machine | overhead (wall clock) | counted, added per transaction |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    );
  }
  if (missing.length > 0) {
    out.push(
      `No entry of ${missing.join(', ')} on ${baseBranch} in history.jsonl yet: a push to ${baseBranch} measures the configured runs and records them.`,
    );
  }
  return `${out.join('\n')}\n`;
}
