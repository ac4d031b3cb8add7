// Counted figures (src/counted) compare across machines where wall-clock ones cannot: two entries whose identity
// matches (server and plugin binaries, configuration, counted workload, valgrind, glibc and its pinned choices) ran
// the same code on the same statements, so a rise in what the plugin adds per transaction is a change of the build
// or the configuration, not of the runner. A change of the binaries or the configuration is compared and named as
// the cause; only what keeps two counts apart whatever the plugin did (the counted workload, valgrind, glibc)
// starts a new window. The change's interval combines the two runs' halves as compare.ts does.
import { identityDifferences } from '../counted/identity.ts';
import { type Ci95, judgeAgainstWindow, type RegressionVerdict } from './compare.ts';
import type { HistoryEntry } from './entry.ts';

type Counted = HistoryEntry & { counted: NonNullable<HistoryEntry['counted']> };

export type CountedComparison =
  | { kind: 'no-base'; current: Counted; baseBranch: string }
  | {
      kind: 'compared';
      current: Counted;
      /** The newest entry of the window. */
      base: Counted;
      /** The entries pooled into the baseline, newest first (at most HISTORY_WINDOW). */
      window: Counted[];
      /** What of the identity differs from the newest base (binaries, configuration): the cause, never a reason to skip. */
      causes: string[];
      /** current − the window's pooled figure, in points of the instructions the plugin adds. */
      changePp: number;
      changeCi95: Ci95;
      verdict: RegressionVerdict;
      culprit: { lastGood: Counted; firstBad: Counted } | null;
      /** The newest base ran on another machine: counts compare all the same. */
      crossMachine: boolean;
    };

const isCounted = (e: HistoryEntry): e is Counted => e.counted !== null;

/**
 * What keeps two counts apart, whatever the plugin did: the counted workload, valgrind, glibc and the CPU features it
 * selects code by. A window holds one value of these; the rest of the identity (server and plugin binaries, the
 * configuration) is what a push changes, so it is compared and named.
 */
const KEYED = new Set(['workload', 'valgrind', 'glibcSha256', 'glibcTunables', 'cpuFeatures']);

// Added operations go into a counted arm as a count scaled by the wall clock's throughput (count-run.ts,
// describeCounted), so the workload's text differs between two runners, or after a change that slows the server, by
// that count alone: the statements sysbench ran are the same, and the count is named as a cause.
const sysbenchPart = (workload: string): string => workload.replace(/, then .*?(?=, seed \d)/, '');

/** The identity fields `e` differs from `current` in, split into those that keep it out and those that are causes. */
function differences(current: Counted, e: Counted): { keyed: string[]; causes: string[] } {
  const all = identityDifferences(current.counted.identity, e.counted.identity).map((f) =>
    f === 'workload' &&
    sysbenchPart(current.counted.identity.workload) === sysbenchPart(e.counted.identity.workload)
      ? 'added operations per arm'
      : f,
  );
  return { keyed: all.filter((f) => KEYED.has(f)), causes: all.filter((f) => !KEYED.has(f)) };
}

/** The base-branch counted entries of the same run and window key, on any machine, newest first. */
export function countedSeries(
  current: Counted,
  history: readonly HistoryEntry[],
  baseBranch: string,
): Counted[] {
  return history
    .filter(
      (e): e is Counted =>
        isCounted(e) &&
        e.branch === baseBranch &&
        e.invocationId !== current.invocationId &&
        current.runId !== null &&
        e.runId === current.runId &&
        differences(current, e).keyed.length === 0,
    )
    .sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
}

/** The newest base-branch counted entry of the same run and window key, or null. */
export function findCountedBase(
  current: Counted,
  history: readonly HistoryEntry[],
  baseBranch: string,
): Counted | null {
  return countedSeries(current, history, baseBranch)[0] ?? null;
}

const point = (e: Counted) => ({ value: e.counted.instructionsPct, ci95: e.counted.instructionsPctCi95 });

/** Each counted entry of this invocation against its pooled window: the rise in added instructions, judged against maxRisePp. */
export function compareCounted(
  current: readonly HistoryEntry[],
  history: readonly HistoryEntry[],
  options: { baseBranch: string; maxCountedRisePp: number | null },
): CountedComparison[] {
  return current.filter(isCounted).map((entry): CountedComparison => {
    const series = countedSeries(entry, history, options.baseBranch);
    const judged = judgeAgainstWindow(series, entry, point, options.maxCountedRisePp);
    if (!judged) return { kind: 'no-base', current: entry, baseBranch: options.baseBranch };
    const { base, window, change, verdict, culprit } = judged;
    return {
      kind: 'compared',
      current: entry,
      base,
      window,
      causes: differences(entry, base).causes,
      changePp: change.changePp,
      changeCi95: change.ci95,
      verdict,
      culprit,
      crossMachine: entry.hostname !== null && base.hostname !== null && entry.hostname !== base.hostname,
    };
  });
}

const signed = (v: number, digits = 2) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}`;

/** One line per counted comparison, for the terminal and summary.md. */
export function formatCountedComparison(c: CountedComparison, maxCountedRisePp: number | null): string {
  const label = `${c.current.title} · ${c.current.server.flavor} ${c.current.server.version}`;
  const now = `${signed(c.current.counted.instructionsPct)}% instructions`;
  if (c.kind === 'no-base')
    return `${label}: counted ${now}; no earlier counted run on ${c.baseBranch} with the same identity (binaries, configuration, counted workload, valgrind, glibc)`;
  const where = c.crossMachine ? ` on another machine (${c.base.hostname})` : '';
  const pooled = c.window.length > 1 ? ` (pooled over the last ${c.window.length})` : '';
  const cause = c.causes.length > 0 ? `; changed since: ${c.causes.join(', ')}` : '';
  const verdict =
    c.verdict === 'ungated'
      ? 'not gated'
      : c.verdict === 'regressed'
        ? `REGRESSED beyond ${maxCountedRisePp} pp`
        : c.verdict === 'inconclusive'
          ? `INCONCLUSIVE against ${maxCountedRisePp} pp`
          : `within ${maxCountedRisePp} pp`;
  return `${label}: counted ${now} vs ${signed(c.base.counted.instructionsPct)}% at ${c.base.commit.slice(0, 7)}${where}${pooled}: ${signed(c.changePp)} pp [${c.changeCi95[0].toFixed(2)}, ${c.changeCi95[1].toFixed(2)}], ${verdict}${cause}`;
}
