import { parseSysbenchOutput } from './sysbench-output.ts';
import type { SysbenchInterval, SysbenchResult } from './sysbench-result.ts';

/** A measured run: valid, or invalid with the reason and whatever sysbench managed to report. */
export type SysbenchRun =
  | { ok: true; result: SysbenchResult }
  | { ok: false; reason: string; result?: SysbenchResult; stderr: string };

/** How a sysbench process ended, as the runner saw it. */
export interface SysbenchExit {
  stdout: string;
  stderr: string;
  /** How the process ended badly, e.g. 'exited with code 1'; absent when it exited with 0. */
  failure?: string;
}

const STDERR_TAIL_CHARS = 8_000;
const DIAGNOSTIC_LINES = 8;

/**
 * Decides whether a finished run counts. A reconnect makes it invalid, and so do ignored SQL errors (retried
 * deadlocks, lock waits, snapshot conflicts) above `maxIgnoredErrorPct` of the transactions: the work they
 * redid makes its throughput incomparable with a clean run's. A tolerance of a few per ten thousand keeps
 * servers that raise the odd conflict under the same load on both arms (MariaDB 11.8) measurable.
 */
export function judgeSysbenchRun(
  { stdout, stderr, failure }: SysbenchExit,
  { maxIgnoredErrorPct = 0 }: { maxIgnoredErrorPct?: number } = {},
): SysbenchRun {
  let result: SysbenchResult | undefined;
  let parseError: string | undefined;
  try {
    result = parseSysbenchOutput(stdout);
  } catch (error: unknown) {
    parseError = error instanceof Error ? error.message : String(error);
  }
  const invalid = { ok: false as const, result, stderr: stderr.slice(-STDERR_TAIL_CHARS) };
  if (failure) return { ...invalid, reason: withDiagnostics(`sysbench ${failure}`, stdout, stderr) };
  if (!result) return { ...invalid, reason: withDiagnostics(parseError ?? 'no output', stdout, stderr) };
  const problems = runProblems(result, maxIgnoredErrorPct);
  if (problems.length > 0) return { ...invalid, reason: problems.join('; ') };
  return { ok: true, result };
}

function runProblems(result: SysbenchResult, maxIgnoredErrorPct: number): string[] {
  const problems: string[] = [];
  const errorPct = result.transactions > 0 ? (100 * result.errors) / result.transactions : 100;
  if (result.errors > 0 && errorPct > maxIgnoredErrorPct) {
    const share = `${errorPct.toFixed(3)}% of transactions, above the ${maxIgnoredErrorPct}% tolerated`;
    problems.push(
      `sysbench ignored ${result.errors} SQL errors (${share})${firstSeen(result.intervals, 'errorsPerS')} ` +
        '(oltp_* ignores deadlocks and lock wait timeouts by default; see the server error log)',
    );
  }
  if (result.reconnects > 0) {
    problems.push(
      `sysbench reconnected ${result.reconnects} times${firstSeen(result.intervals, 'reconnectsPerS')} ` +
        '(the server dropped connections: did it restart or kill them?)',
    );
  }
  return problems;
}

function firstSeen(intervals: SysbenchInterval[], field: 'errorsPerS' | 'reconnectsPerS'): string {
  const first = intervals.find((interval) => interval[field] > 0);
  return first ? `, first in the second ending at ${first.atS}s` : '';
}

/** Appends what explains a failure: sysbench 1.0 prints FATAL lines on stdout, not stderr. */
export function withDiagnostics(message: string, stdout: string, stderr: string): string {
  const explaining = stdout.split('\n').filter((line) => /^(FATAL|ALERT|WARNING):/.test(line));
  const lines = unique([...explaining, ...nonEmptyLines(stderr)]).slice(-DIAGNOSTIC_LINES);
  if (lines.length === 0) {
    const lastReport = nonEmptyLines(stdout)
      .filter((line) => line.startsWith('['))
      .at(-1);
    if (lastReport) lines.push(`last per-second line: ${lastReport}`);
  }
  return lines.length > 0 ? `${message}:\n${lines.join('\n')}` : message;
}

function nonEmptyLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
}

// Every worker thread prints the same FATAL line; once is enough.
function unique(lines: string[]): string[] {
  return [...new Set(lines)];
}
