// Counted figures (src/counted) compare across machines where wall-clock ones cannot: two entries whose identity
// matches (server and plugin binaries, configuration, counted workload, valgrind, glibc and its pinned choices) ran
// the same code on the same statements, so a rise in what the plugin adds per transaction is a change of the build
// or the configuration, not of the runner. The change's interval combines the two runs' halves as compare.ts does.
import { identityDifferences } from '../counted/identity.ts';
import { type Ci95, judgeChange, type RegressionVerdict } from './compare.ts';
import type { HistoryEntry } from './entry.ts';

type Counted = HistoryEntry & { counted: NonNullable<HistoryEntry['counted']> };

export type CountedComparison =
  | { kind: 'no-base'; current: Counted; baseBranch: string }
  | {
      kind: 'compared';
      current: Counted;
      base: Counted;
      /** current − base, in points of the instructions the plugin adds (percent of plugin-off instructions). */
      changePp: number;
      changeCi95: Ci95;
      verdict: RegressionVerdict;
      /** The base ran on another machine: counts compare all the same. */
      crossMachine: boolean;
    };

const isCounted = (e: HistoryEntry): e is Counted => e.counted !== null;
const half = (ci: Ci95 | null): number => (ci ? (ci[1] - ci[0]) / 2 : 0);

/** The latest base-branch entry of the same run with the same counted identity, on any machine. */
export function findCountedBase(
  current: Counted,
  history: readonly HistoryEntry[],
  baseBranch: string,
): Counted | null {
  let best: Counted | null = null;
  for (const e of history) {
    if (!isCounted(e) || e.branch !== baseBranch || e.runId === current.runId) continue;
    const sameRun = current.configRun !== null && e.configRun === current.configRun;
    if (!sameRun || identityDifferences(current.counted.identity, e.counted.identity).length > 0) continue;
    if (best === null || Date.parse(e.recordedAt) >= Date.parse(best.recordedAt)) best = e;
  }
  return best;
}

/** Each counted entry of this run against its base: the rise in added instructions, judged against maxRisePp. */
export function compareCounted(
  current: readonly HistoryEntry[],
  history: readonly HistoryEntry[],
  options: { baseBranch: string; maxCountedRisePp: number | null },
): CountedComparison[] {
  return current.filter(isCounted).map((entry): CountedComparison => {
    const base = findCountedBase(entry, history, options.baseBranch);
    if (!base) return { kind: 'no-base', current: entry, baseBranch: options.baseBranch };
    const changePp = entry.counted.instructionsPct - base.counted.instructionsPct;
    const h = Math.hypot(half(entry.counted.instructionsPctCi95), half(base.counted.instructionsPctCi95));
    const changeCi95: Ci95 = [changePp - h, changePp + h];
    return {
      kind: 'compared',
      current: entry,
      base,
      changePp,
      changeCi95,
      verdict: judgeChange(changeCi95, options.maxCountedRisePp),
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
  const verdict =
    c.verdict === 'ungated'
      ? 'not gated'
      : c.verdict === 'regressed'
        ? `REGRESSED beyond ${maxCountedRisePp} pp`
        : c.verdict === 'inconclusive'
          ? `INCONCLUSIVE against ${maxCountedRisePp} pp`
          : `within ${maxCountedRisePp} pp`;
  return `${label}: counted ${now} vs ${signed(c.base.counted.instructionsPct)}% at ${c.base.commit.slice(0, 7)}${where}: ${signed(c.changePp)} pp [${c.changeCi95[0].toFixed(2)}, ${c.changeCi95[1].toFixed(2)}], ${verdict}`;
}
