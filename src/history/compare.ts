// The change in overhead between two runs is a difference of two independent estimates. We work on the
// percentage-point scale, where the history check's threshold lives: change = current − base, and the interval's half-width
// is sqrt(h_base² + h_current²), each h half the width of that run's 95% interval. Each run's interval is a (trimmed)
// t interval; with equal pair counts (one workload, both stopped at the same block) this is t_df times the combined
// standard error, never narrower than a Welch interval, whose degrees of freedom are at least df: conservative,
// and it needs nothing but what results.json already holds. The back-transformed intervals are slightly asymmetric; half their width is what we
// combine. Simulated coverage of the true change (compare.test.ts): about 97% with 6 pairs per run, 96% with 18.
import type { HistoryEntry } from './entry.ts';
import { type Ci95, changeFromWindow, HISTORY_WINDOW, lastGoodFirstBad, type Point } from './window.ts';

export type { Ci95 } from './window.ts';

/** What was compared with: the same configuration, a changed one, or one of the two runs had no hash. */
export type Basis = 'same-config' | 'config-changed' | 'config-unknown';

/** ok: surely within the allowed regression; regressed: surely beyond it; ungated: no limit was set. */
export type RegressionVerdict = 'ok' | 'regressed' | 'inconclusive' | 'ungated';

export type Comparison =
  | { kind: 'not-measured'; current: HistoryEntry }
  | { kind: 'no-base'; current: HistoryEntry; baseBranch: string }
  | {
      kind: 'compared';
      current: HistoryEntry;
      /** The newest entry of the window. */
      base: HistoryEntry;
      /** The entries pooled into the baseline, newest first (at most HISTORY_WINDOW). */
      window: HistoryEntry[];
      basis: Basis;
      /** current − the window's pooled figure, in percentage points of baseline throughput: positive is a regression. */
      changePp: number;
      changeCi95: Ci95;
      verdict: RegressionVerdict;
      /** Where the rise began, when the verdict is not within the limit: null without an entry before the first bad. */
      culprit: Culprit | null;
      /**
       * The newest base entry came from another hostname of the same fingerprint (both known): said, and gated all the
       * same, since in CI every job is a new VM; the pooled window carries the scatter between them (window.ts).
       */
      crossMachine: boolean;
    };

/** The last entry within the limit and the first beyond it (src/history/window.ts, lastGoodFirstBad). */
export interface Culprit {
  lastGood: HistoryEntry;
  firstBad: HistoryEntry;
}

export interface CompareOptions {
  baseBranch: string;
  /** Largest allowed increase of the overhead, in percentage points; null gates nothing. */
  maxRegressionPp: number | null;
}

/** 'origin/main', 'refs/remotes/origin/main' and 'refs/heads/main' all name the branch 'main'. */
export function baseBranchOf(ref: string): string {
  return ref.replace(/^refs\/heads\//, '').replace(/^(refs\/remotes\/[^/]+|origin)\//, '');
}

const halfWidth = ([lower, upper]: Ci95): number => (upper - lower) / 2;

/** The change from base to current with its 95% interval (see the top of this file for why this way). */
export function changeInterval(
  base: { overheadPct: number; ci95: Ci95 },
  current: { overheadPct: number; ci95: Ci95 },
): { changePp: number; ci95: Ci95 } {
  const changePp = current.overheadPct - base.overheadPct;
  const h = Math.hypot(halfWidth(base.ci95), halfWidth(current.ci95));
  return { changePp, ci95: [changePp - h, changePp + h] };
}

/** Mirrors the overhead verdict: regressed only when the whole interval is beyond the allowed change. */
export function judgeChange([lower, upper]: Ci95, maxRegressionPp: number | null): RegressionVerdict {
  if (maxRegressionPp === null) return 'ungated';
  if (lower > maxRegressionPp) return 'regressed';
  if (upper <= maxRegressionPp) return 'ok';
  return 'inconclusive';
}

const sameServer = (a: HistoryEntry, b: HistoryEntry): boolean =>
  a.server.flavor === b.server.flavor &&
  a.server.version === b.server.version &&
  a.server.target === b.server.target;

// An idle entry's figure priced a plugin that logged none of the traffic: it is neither compared nor a base.
type MeasuredEntry = HistoryEntry & { overheadPct: number; overheadCi95: Ci95 };
const measured = (e: HistoryEntry): e is MeasuredEntry =>
  e.overheadPct !== null && e.overheadCi95 !== null && e.verdict !== 'idle';

function basisOf(current: HistoryEntry, base: HistoryEntry): Basis {
  if (current.configHash === null || base.configHash === null) return 'config-unknown';
  return current.configHash === base.configHash ? 'same-config' : 'config-changed';
}

/**
 * The measured base-branch entries of the same configuration run (by its id), server, workload and machine
 * fingerprint, newest first: every entry of that identity (`series` of lastGoodFirstBad reversed), the window its
 * first HISTORY_WINDOW. A changed configuration is not left out: that change is the regression being tracked, and
 * `basis` names it. The wall clock compares within one fingerprint (CPU model × cores, memory), not one hostname:
 * GitHub gives each job a new VM, so a hostname never repeats.
 */
export function comparableEntries(
  current: HistoryEntry,
  history: readonly HistoryEntry[],
  baseBranch: string,
): MeasuredEntry[] {
  return history
    .filter(
      (e): e is MeasuredEntry =>
        e.branch === baseBranch &&
        e.invocationId !== current.invocationId &&
        current.runId !== null &&
        e.runId === current.runId &&
        e.workload === current.workload &&
        e.fingerprint === current.fingerprint &&
        sameServer(e, current) &&
        measured(e),
    )
    .sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
}

/** The newest comparable entry, or null. */
export function findBase(
  current: HistoryEntry,
  history: readonly HistoryEntry[],
  baseBranch: string,
): HistoryEntry | null {
  return comparableEntries(current, history, baseBranch)[0] ?? null;
}

const point = (e: MeasuredEntry): Point => ({ value: e.overheadPct, ci95: e.overheadCi95 });

/**
 * One new entry against the pooled window of its series (newest first): the window, the change and its verdict, and,
 * when it rose, the last entry within the limit and the first beyond it. Null when the series is empty. The wall clock
 * (below) and the counts (counted-compare.ts) each give their own series and point.
 */
export function judgeAgainstWindow<E>(
  series: readonly E[],
  entry: E,
  at: (e: E) => Point,
  limitPp: number | null,
): {
  base: E;
  window: E[];
  change: ReturnType<typeof changeFromWindow>;
  verdict: RegressionVerdict;
  culprit: { lastGood: E; firstBad: E } | null;
} | null {
  const window = series.slice(0, HISTORY_WINDOW);
  const base = window[0];
  if (base === undefined) return null;
  const change = changeFromWindow(window.map(at), at(entry));
  const verdict = judgeChange(change.ci95, limitPp);
  const culprit =
    verdict === 'regressed' || verdict === 'inconclusive'
      ? lastGoodFirstBad([...series].reverse().concat(entry), (e) => at(e).value, limitPp ?? 0)
      : null;
  return { base, window, change, verdict, culprit };
}

/** Compares each of this invocation's entries with the pooled window of its base-branch entries (src/history/window.ts). */
export function compareWithBase(
  current: readonly HistoryEntry[],
  history: readonly HistoryEntry[],
  options: CompareOptions,
): Comparison[] {
  return current.map((entry): Comparison => {
    if (!measured(entry)) return { kind: 'not-measured', current: entry };
    const series = comparableEntries(entry, history, options.baseBranch);
    const judged = judgeAgainstWindow(series, entry, point, options.maxRegressionPp);
    if (!judged) return { kind: 'no-base', current: entry, baseBranch: options.baseBranch };
    const { base, window, change, verdict, culprit } = judged;
    return {
      kind: 'compared',
      current: entry,
      base,
      window,
      basis: basisOf(entry, base),
      changePp: change.changePp,
      changeCi95: change.ci95,
      verdict,
      culprit,
      crossMachine: entry.hostname !== null && base.hostname !== null && entry.hostname !== base.hostname,
    };
  });
}

/**
 * Whether a comparison fails the history check; inconclusive follows the configuration's `inconclusive` as a run's
 * verdict does. Only entries of one machine fingerprint are ever compared (comparableEntries).
 */
export function failsHistoryCheck(comparison: Comparison, inconclusive: 'fail' | 'pass'): boolean {
  if (comparison.kind !== 'compared') return false;
  return (
    comparison.verdict === 'regressed' || (comparison.verdict === 'inconclusive' && inconclusive === 'fail')
  );
}

/** Whether the history can serve as a base at all: never recorded the base branch is not the same as a new history. */
export type BaseStatus =
  | { kind: 'known' }
  | { kind: 'empty-history' }
  | { kind: 'unknown-branch'; seen: string[] };

export function baseStatus(history: readonly HistoryEntry[], baseBranch: string): BaseStatus {
  if (history.length === 0) return { kind: 'empty-history' };
  if (history.some((e) => e.branch === baseBranch)) return { kind: 'known' };
  return { kind: 'unknown-branch', seen: [...new Set(history.map((e) => e.branch))].sort() };
}

/**
 * The line the history check prints when it cannot compare, and whether that fails a gated run: an unknown base branch
 * (a typo, a ref other than origin/<branch>) fails closed; an empty history says 'no base yet' and passes.
 */
export function describeBaseStatus(
  status: BaseStatus,
  baseRef: string,
  baseBranch: string,
  historyFile: string,
): { line: string; fails: boolean } | null {
  if (status.kind === 'known') return null;
  if (status.kind === 'empty-history') {
    return { line: `no base yet: ${historyFile} holds no earlier run, so nothing is compared`, fails: false };
  }
  return {
    line: `AUDITBENCH_BASE_REF '${baseRef}' names branch '${baseBranch}', which ${historyFile} never recorded (it has ${status.seen.join(', ')}): fix AUDITBENCH_BASE_REF or record a run of '${baseBranch}' first`,
    fails: true,
  };
}
