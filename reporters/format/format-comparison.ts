import { type Comparison, failsHistoryCheck } from '../../src/history/compare.ts';
import type { HistoryEntry } from '../../src/history/entry.ts';

const signed = (value: number): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
const interval = ([lower, upper]: [number, number]): string => `[${lower.toFixed(1)}, ${upper.toFixed(1)}]`;

/** 'MariaDB server_audit · mariadb 10.11.19 · smoke': which result a line is about. */
export function resultLabel(e: HistoryEntry): string {
  return `${e.title} · ${e.server.flavor} ${e.server.version} · ${e.workload}`;
}

/** One run, as a DBA would cite it: overhead, interval, commit, branch and date. */
export function runLabel(e: HistoryEntry): string {
  const overhead =
    e.overheadPct === null
      ? 'no overhead'
      : `${e.overheadPct.toFixed(1)}%${e.overheadCi95 ? ` ${interval(e.overheadCi95)}` : ''}`;
  return `${overhead} at ${e.commit.slice(0, 7)} (${e.branch}, ${e.recordedAt.slice(0, 16).replace('T', ' ')} UTC)`;
}

function basisLabel(c: Extract<Comparison, { kind: 'compared' }>): string {
  if (c.basis === 'same-config') return 'same configuration';
  if (c.basis === 'config-changed') {
    return `configuration changed: ${c.base.configHash} → ${c.current.configHash}`;
  }
  return 'configuration unknown: one run has no config hash';
}

const verdictLabel = {
  regressed: 'REGRESSED beyond',
  inconclusive: 'INCONCLUSIVE against',
  ok: 'within',
  ungated: 'not gated',
} as const;

/** What changed for one result since its base-branch run. */
export function formatComparison(c: Comparison, maxRegressionPp: number | null): string {
  const label = resultLabel(c.current);
  if (c.kind === 'not-measured' && c.current.verdict === 'idle')
    return `${label}: idle (the plugin logged none of the traffic), so its figure is not compared`;
  if (c.kind === 'not-measured') return `${label}: not measured (${c.current.verdict}), nothing to compare`;
  if (c.kind === 'no-base') {
    return `${label}: ${runLabel(c.current)}; no earlier measured run on ${c.baseBranch} with this plugin, server, workload and machine (${c.current.fingerprint})`;
  }
  const limit = maxRegressionPp === null ? '' : ` ${maxRegressionPp} pp`;
  // Compared within one machine fingerprint, whatever the hostname (src/history/compare.ts, comparableEntries).
  const machine = c.crossMachine
    ? `; another runner of the same fingerprint (${c.base.hostname} → ${c.current.hostname})`
    : '';
  const pooled = c.window.length > 1 ? ` pooled over the last ${c.window.length}` : '';
  return `${label}: ${runLabel(c.current)} vs ${runLabel(c.base)}${pooled}: ${signed(c.changePp)} pp ${interval(c.changeCi95)} (${basisLabel(c)}), ${verdictLabel[c.verdict]}${limit}${machine}`;
}

/** The history check's closing verdict, one line; also says what to do when it fails. */
export function formatHistoryVerdict(
  comparisons: readonly Comparison[],
  options: { maxRegressionPp: number | null; inconclusive: 'fail' | 'pass'; baseBranch: string },
): { failed: boolean; line: string } {
  const { maxRegressionPp, inconclusive, baseBranch } = options;
  if (maxRegressionPp === null) {
    return {
      failed: false,
      line: `history check: off (set AUDITBENCH_MAX_REGRESSION_PP to fail on a rise in overhead against ${baseBranch})`,
    };
  }
  const failing = comparisons.filter((c) => failsHistoryCheck(c, inconclusive));
  const compared = comparisons.filter((c) => c.kind === 'compared').length;
  if (failing.length === 0) {
    return {
      failed: false,
      line: `history check: passed; ${compared} of ${comparisons.length} result(s) compared with ${baseBranch}, none rose more than ${maxRegressionPp} pp`,
    };
  }
  const count = (verdict: string) =>
    failing.filter((c) => c.kind === 'compared' && c.verdict === verdict).length;
  const [regressed, unsure] = [count('regressed'), count('inconclusive')];
  const advice =
    unsure > 0
      ? "; inconclusive fails the gate: measure longer (AUDITBENCH_WORKLOAD=standard) or set inconclusive: 'pass' in auditbench.config.ts"
      : '';
  return {
    failed: true,
    line: `history check: FAILED against ${baseBranch} (allowed rise ${maxRegressionPp} pp): ${regressed} regressed, ${unsure} inconclusive${advice}`,
  };
}
