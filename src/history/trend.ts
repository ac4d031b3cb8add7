// The trend of each configured run, as `auditbench history` prints it and the trend page draws it: its entries,
// oldest first, each marked where the history check fails it against the entries before it (the same rules as the
// check after a bench: src/history/compare.ts and counted-compare.ts, each entry against its own branch's window).
import { compareWithBase, failsHistoryCheck } from './compare.ts';
import { compareCounted } from './counted-compare.ts';
import type { HistoryEntry } from './entry.ts';

export interface TrendRow {
  entry: HistoryEntry;
  /** The wall clock rose beyond maxRegressionPp against the window before it (one machine fingerprint). */
  wallClockFailed: boolean;
  /** The counted instructions rose beyond maxCountedRisePp against the window before it (any machine). */
  countedFailed: boolean;
}

export interface RunTrend {
  /** The configured run's id (`runId`), or the title of an entry from before runs had ids. */
  run: string;
  rows: TrendRow[];
}

export interface TrendLimits {
  /** Null marks no wall-clock or counted failure: the check gates nothing without it. */
  maxRegressionPp: number | null;
  maxCountedRisePp: number;
}

const byTime = (a: HistoryEntry, b: HistoryEntry) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt);

/** Each run's last `last` entries, oldest first, in the order runs first appear; `runs` keeps only those ids. */
export function runTrends(
  history: readonly HistoryEntry[],
  limits: TrendLimits,
  options: { last: number; runs?: readonly string[] | null },
): RunTrend[] {
  const sorted = [...history].sort(byTime);
  const groups = new Map<string, HistoryEntry[]>();
  for (const e of sorted) {
    const run = e.runId ?? e.title;
    if (options.runs && !options.runs.includes(run)) continue;
    groups.set(run, [...(groups.get(run) ?? []), e]);
  }
  return [...groups].map(([run, entries]) => ({
    run,
    rows: entries.slice(-options.last).map((entry) => {
      const before = sorted.filter((e) => byTime(e, entry) < 0);
      const gated = limits.maxRegressionPp;
      const [wall] = compareWithBase([entry], before, { baseBranch: entry.branch, maxRegressionPp: gated });
      const [counted] = compareCounted([entry], before, {
        baseBranch: entry.branch,
        maxCountedRisePp: gated === null ? null : limits.maxCountedRisePp,
      });
      return {
        entry,
        wallClockFailed: wall !== undefined && failsHistoryCheck(wall, 'pass'),
        countedFailed: counted?.kind === 'compared' && counted.verdict === 'regressed',
      };
    }),
  }));
}
