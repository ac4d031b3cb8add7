// The verdict on a base-vs-head measurement: pure, unit tested in verdict.test.ts.
import type { Silence, SilenceCause } from '../bench/silence.ts';
import { type Ci95Pct, halfWidth } from '../stats/paired-overhead.ts';

export interface BaseHeadVerdict {
  /** idle: neither arm logged any of the traffic's events, so the comparison cannot judge the change. */
  verdict: 'pass' | 'fail' | 'inconclusive' | 'idle';
  /** 100·(1 − head/base): how much throughput the head loses against the base; positive is a regression. */
  changePct: number;
  ci95: Ci95Pct | null;
  reason: string;
  /** An idle verdict's cause, and whether it fails the gate (the head run's `idle`; an unwritable log always). */
  silence?: { cause: SilenceCause; fails: boolean };
}

const pct = (v: number) => `${v.toFixed(1)}%`;
/**
 * "12.0% slower" or, for a head that gained throughput, "4.7% faster": never a negative "slower", and a change that
 * rounds to 0.0% reads "0.0% slower", not "0.0% faster".
 */
const direction = (changePct: number) => {
  const shown = pct(Math.abs(changePct));
  return changePct < 0 && shown !== pct(0) ? `${shown} faster` : `${shown} slower`;
};
const range = ([lower, upper]: Ci95Pct) => `${pct(lower)} to ${pct(upper)}`;

/** How far the gate measured before it stopped: its pairs, the most its workload takes, and its budget. */
export interface GateSpent {
  pairs: number;
  maxPairs: number;
  budgetS: number;
  workload: string;
}

/** Why an undecided gate stopped where it did: its budget (or its most pairs) spent while the interval straddled. */
const stoppedAt = ({ pairs, maxPairs, budgetS, workload }: GateSpent): string =>
  pairs >= maxPairs
    ? `after ${pairs} pairs, the most ${workload} takes`
    : `after ${pairs} pairs, the gate's ${budgetS} s budget on ${workload} spent`;

/**
 * fail: the whole interval of the head's loss against the base is above the allowed regression; pass: the whole
 * interval is below it; inconclusive otherwise (or with one pair, no interval). `names` says which two
 * configurations were compared, e.g. "base (server_audit_events: CONNECT) vs head (…: CONNECT,QUERY)"; `spent`, where
 * given, how far the gate measured, which an inconclusive verdict names.
 */
export function judgeBaseHead(
  estimate: { estimatePct: number; ci95: Ci95Pct | null },
  maxRegressionPp: number,
  names: string,
  spent?: GateSpent,
): BaseHeadVerdict {
  const { estimatePct, ci95 } = estimate;
  const allowed = `the allowed ${Number(maxRegressionPp.toFixed(2))} points`;
  const base = { changePct: estimatePct, ci95 };
  if (ci95 === null) {
    return {
      ...base,
      verdict: 'inconclusive',
      reason: `${names}: head ${direction(estimatePct)} from a single pair has no interval; measure at least 2 pairs`,
    };
  }
  const measured = `${names}: head is ${direction(estimatePct)} than base (95% CI ${range(ci95)})`;
  if (ci95[0] > maxRegressionPp) return { ...base, verdict: 'fail', reason: `${measured}, above ${allowed}` };
  if (ci95[1] < maxRegressionPp) return { ...base, verdict: 'pass', reason: `${measured}, below ${allowed}` };
  return {
    ...base,
    verdict: 'inconclusive',
    reason: `${measured} straddles ${allowed}${spent ? ` ${stoppedAt(spent)}; a longer workload narrows it` : '; add pairs or a longer workload'}`,
  };
}

/**
 * The comparison of two configurations neither of which logged the traffic: whatever the interval says, it priced
 * plugins that wrote nothing, so it cannot judge the change. Never a pass.
 */
export function silentVerdict(
  estimate: { estimatePct: number; ci95: Ci95Pct | null },
  names: string,
  silence: Silence,
  fails: boolean,
): BaseHeadVerdict {
  const { estimatePct, ci95 } = estimate;
  return {
    verdict: 'idle',
    changePct: estimatePct,
    ci95,
    reason: `${names}: can't judge: neither base nor head logged any of the traffic's events (head ${direction(estimatePct)} prices plugins that wrote nothing); ${silence.detail}`,
    silence: { cause: silence.cause, fails },
  };
}

/**
 * Whether a verdict fails the gate; inconclusive follows the configuration's `inconclusive`; idle fails unless its
 * run accepted idle plugins (a verdict recorded without that answer fails).
 */
export const failsGate = (verdict: BaseHeadVerdict, inconclusive: 'fail' | 'pass'): boolean =>
  verdict.verdict === 'fail' ||
  (verdict.verdict === 'idle' && verdict.silence?.fails !== false) ||
  (verdict.verdict === 'inconclusive' && inconclusive === 'fail');

/** The closing line's mark: FAILED, passed, or what passes without being a pass. */
export const gateMark = (verdict: BaseHeadVerdict, inconclusive: 'fail' | 'pass'): string =>
  failsGate(verdict, inconclusive)
    ? 'FAILED'
    : verdict.verdict === 'pass'
      ? 'passed'
      : verdict.verdict === 'idle'
        ? "can't judge (passes: idle: 'pass')"
        : 'inconclusive (passes)';

/** The two configurations a comparison measured, named by what differs between them. */
export function nameConfigurations(runId: string, differences: readonly string[]): string {
  const side = (pick: (from: string, to: string) => string) =>
    differences
      .map((d) => {
        const [name, values = ''] = d.split(/: (.*)/s);
        const [from = '', to = ''] = values.split(' → ');
        return `${name}=${pick(from, to)}`;
      })
      .join(', ');
  return `${runId}, base (${side((from) => from)}) vs head (${side((_, to) => to)})`;
}

const DESIGN_NAMES: Record<string, string> = {
  toggle: 'toggled',
  reconnect: 'reconnecting per arm',
  restarts: 'with restarts',
};

/**
 * The command's closing lines for one verdict: what was measured, and where the interval carries τ, how wide the
 * run's own pairs alone made it (the precision a longer run buys; τ does not shrink with pairs); then, where the
 * server chose the design, which one and why, naming the options ("ops-cnf measured toggled: …").
 */
export function verdictLine(
  mark: string,
  v: BaseHeadVerdict & {
    runId?: string;
    design: string;
    designWhy?: string;
    pairs: number;
    withinRunCi95?: Ci95Pct | null;
  },
): string {
  const within = v.withinRunCi95 ? `; within this run ±${halfWidth(v.withinRunCi95).toFixed(2)} pp` : '';
  const line = `auditbench gate: ${mark}: ${v.reason} [${v.design}, ${v.pairs} pairs${within}]`;
  if (!v.designWhy) return line;
  const how = DESIGN_NAMES[v.design] ?? v.design;
  return `${line}\nauditbench gate: ${v.runId ?? 'the run'} measured ${how}: ${v.designWhy}`;
}
