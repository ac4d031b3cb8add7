import type { PluginResult } from '../../src/results/schema.ts';
import type { FailureKind } from '../../src/results/when-it-fails.ts';
import { fixed } from './format-numbers.ts';

/** The name a sweep's reports use for a result: its configuration run's id; results from before runs, their title. */
export const runIdOf = (r: PluginResult): string => (r.runId && r.runId !== '' ? r.runId : r.title);

export const STATUSES = ['pass', 'fail', 'inconclusive', 'error', 'not measured'] as const;
export type RunStatus = (typeof STATUSES)[number];

/**
 * A run's status over everything it checked: a failed lifecycle check, an idle plugin or a p99 over its
 * maxP99IncreasePct fails the run whatever its overhead verdict, as the gate fails its test (limitFailure in
 * src/bench/pipeline.ts), and `why` says what failed (null for a pass).
 */
export function runStatus(r: PluginResult): { status: RunStatus; why: string | null } {
  const failed = r.lifecycle.filter((c) => !c.ok).map((c) => c.check);
  const lifecycle =
    failed.length > 0
      ? `${failed.length} lifecycle check${failed.length === 1 ? '' : 's'} failed (${failed.join(', ')})`
      : null;
  const idle =
    r.verdict === 'idle' || r.measurement?.auditEvents?.idle === true ? 'measured an idle plugin' : null;
  const overhead =
    r.verdict === 'fail' && !idle
      ? `overhead ${fixed(r.overheadPct)}% against its ${fixed(r.limitPct, 0)}% limit`
      : null;
  const latency = r.measurement?.latency;
  const p99 = latency?.measured && latency.p99LimitFailed ? latency.reason : null;
  // A result with neither a measurement nor an A/A came from a suite that measures no overhead on purpose (counted,
  // per-event, completeness, a lifecycle-only run): not an error. A run whose measurement broke has its A/A.
  if (r.verdict === 'error' && r.measurement === null && r.calibration === null) {
    if (lifecycle) return { status: 'fail', why: lifecycle };
    return { status: 'not measured', why: 'no overhead measured: its suite checks something else' };
  }
  if (r.verdict === 'error') {
    return { status: 'error', why: ['no measurement finished', lifecycle].filter(Boolean).join('; ') };
  }
  // An idle measurement priced a plugin that logged none of its traffic: the run failed to measure what it is for,
  // whatever its overhead verdict (about 0%, so a pass). `idle: 'pass'` lets the run through; the report still
  // says what was measured.
  const fails = [overhead, p99, idle, lifecycle].filter((s) => s !== null);
  if (fails.length > 0) return { status: 'fail', why: fails.join('; ') };
  if (r.verdict === 'inconclusive')
    return {
      status: 'inconclusive',
      why: 'its interval holds the limit: neither within it nor over it at this precision',
    };
  return { status: 'pass', why: null };
}

/** `4 runs: 3 pass, 1 fail (incl-users: 4 lifecycle checks failed (logs-query, …))`: what the overview opens with. */
export function statusLine(results: readonly PluginResult[]): string {
  const statuses = results.map((r) => ({ id: runIdOf(r), ...runStatus(r) }));
  const counts = STATUSES.flatMap((status) => {
    const these = statuses.filter((s) => s.status === status);
    if (these.length === 0) return [];
    const why =
      status === 'pass' || status === 'not measured'
        ? ''
        : ` (${these.map((s) => `${s.id}: ${s.why}`).join('; ')})`;
    return [`${these.length} ${status}${why}`];
  });
  return `${results.length} run${results.length === 1 ? '' : 's'}: ${counts.join(', ')}.`;
}

/**
 * The kinds of docs/when-it-fails.md a result's report should point to: what failed it, and what makes its figures
 * doubtful (measured busy, counted work that does not explain the wall clock). Empty for a clean pass.
 */
export function failureKindsOf(r: PluginResult): FailureKind[] {
  const kinds: FailureKind[] = [];
  const idle = r.verdict === 'idle' || r.measurement?.auditEvents?.idle === true;
  if (r.verdict === 'fail' && !idle) kinds.push('over-the-limit');
  if (idle) kinds.push('idle');
  if (r.verdict === 'inconclusive') kinds.push('inconclusive');
  if (r.verdict === 'error' && runStatus(r).status === 'error') kinds.push('no-measurement');
  if (r.lifecycle.some((c) => !c.ok)) kinds.push('lifecycle');
  const latency = r.measurement?.latency;
  if (latency?.measured && latency.p99LimitFailed) kinds.push('p99-limit');
  if (r.measurement?.interference?.flagged || r.calibration?.interference?.flagged) kinds.push('busy');
  const judgement = r.counted?.prediction?.judgement;
  if (judgement === 'under-predicted' || judgement === 'over-predicted') kinds.push('not-explained');
  return kinds;
}
