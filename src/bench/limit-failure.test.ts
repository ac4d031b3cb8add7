import { expect, test } from 'vitest';
import type { Measurement } from '../results/schema.ts';
import { type LimitPolicy, limitFailure } from './pipeline.ts';

// Only the fields limitFailure reads; the rest of a Measurement does not change its answer.
const measured = (fields: Partial<Measurement>): Measurement =>
  ({ verdict: 'pass', reason: 'overhead 3.1% [1.0, 5.2] is below the 50% limit', ...fields }) as Measurement;
const flagged = {
  flagged: true,
  reason: 'other processes used 80% of a core',
  policy: 'fail' as const,
  otherCpuPct: 80,
  selfCpuPct: 5,
  stealPct: 0,
  blocks: [],
};
const strict: LimitPolicy = { inconclusive: 'fail', interference: 'warn' };

test.for([
  ['a pass passes', measured({}), strict, null],
  [
    'a fail fails with its reason',
    measured({ verdict: 'fail', reason: 'overhead 61% > 50%' }),
    strict,
    'run: overhead 61% > 50%',
  ],
  [
    'an inconclusive fails with what to do',
    measured({ verdict: 'inconclusive', reason: 'the interval straddles 50%' }),
    strict,
    "run: the interval straddles 50% (inconclusive fails the run: run a longer workload, e.g. AUDITBENCH_WORKLOAD=standard, or set inconclusive: 'pass' in auditbench.config.ts)",
  ],
  [
    '…unless the policy passes it',
    measured({ verdict: 'inconclusive', reason: 'x' }),
    { ...strict, inconclusive: 'pass' },
    null,
  ],
  ['a flagged pass under warn passes', measured({ interference: flagged }), strict, null],
  [
    'a flagged pass under fail fails, before the verdict is read',
    measured({ interference: flagged }),
    { ...strict, interference: 'fail' },
    "run: other processes used 80% of a core; interference: 'fail' (auditbench.config.ts) rejects such a verdict: rerun when the machine is quiet, or use 'retry'",
  ],
] as [string, Measurement, LimitPolicy, string | null][])('%s', ([, measurement, policy, expected]) => {
  expect(limitFailure(measurement, policy, 'run')).toBe(expected);
});

test("an idle plugin fails unless idle: 'pass'", () => {
  const idle = measured({
    auditEvents: { idle: true, advice: 'log the traffic' } as Measurement['auditEvents'],
  });
  expect(limitFailure(idle, strict, 'run')).toBe(
    "run: log the traffic (an idle plugin fails the run; idle: 'pass' in auditbench.config.ts accepts it)",
  );
  expect(limitFailure(idle, { ...strict, idle: 'pass' }, 'run')).toBeNull();
});

test.for([
  [
    'an idle verdict fails',
    'events-absent',
    undefined,
    "run: add connections (an idle plugin fails the run; idle: 'pass' in auditbench.config.ts accepts it)",
  ],
  ["an idle verdict passes under idle: 'pass'", 'accounts-filtered', 'pass', null],
  [
    "a plugin that could not write its log fails even under idle: 'pass'",
    'log-unwritable',
    'pass',
    'run: add connections (a plugin that cannot write its log fails the run, whatever idle: says)',
  ],
] as const)('%s', ([, cause, idle, expected]) => {
  const silent = measured({
    verdict: 'idle',
    reason: 'add connections',
    auditEvents: { idle: true, advice: 'add connections', cause } as Measurement['auditEvents'],
  });
  expect(limitFailure(silent, { ...strict, ...(idle && { idle }) }, 'run')).toBe(expected);
});
