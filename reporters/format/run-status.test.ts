import { expect, test } from 'vitest';
import type { Measurement } from '../../src/results/schema.ts';
import { quantileChange, sweepReportInput } from '../../test/support/report-fixtures.ts';
import { runIdOf, runStatus, statusLine } from './run-status.ts';

const [stock, inclUsers, idle, dml] = sweepReportInput().file.results;
if (!stock || !inclUsers || !idle || !dml) throw new Error('the sweep fixture holds four runs');

test('a run whose lifecycle failed is a failure, whatever its overhead verdict', () => {
  expect(inclUsers.verdict).toBe('pass');
  expect(runStatus(inclUsers)).toEqual({
    status: 'fail',
    why: '4 lifecycle checks failed (logs-query, failed-queries, masks-password, rotation)',
  });
  expect(runStatus(stock)).toEqual({ status: 'pass', why: null });
});

test.for([
  ['an idle plugin', { verdict: 'idle' }, 'measured an idle plugin'],
  // Results from before the idle verdict: about 0%, recorded as the interval's pass or fail beside idle: true.
  ['an idle plugin recorded as a pass', { verdict: 'pass' }, 'measured an idle plugin'],
  ['an idle plugin recorded as a fail', { verdict: 'fail' }, 'measured an idle plugin'],

  [
    'an overhead over its limit',
    { verdict: 'fail', measurement: null },
    'overhead 1.3% against its 50% limit',
  ],
  ['no measurement after its A/A', { verdict: 'error', measurement: null }, 'no measurement finished'],
] as const)('why a run failed: %s', ([, change, why]) => {
  expect(runStatus({ ...idle, ...change }).why).toBe(why);
});

const latency = (failed: boolean, reason: string): Measurement['latency'] => ({
  measured: true,
  pairs: 6,
  skippedPairs: 0,
  trimmedEachSide: 1,
  offTransactions: 4000,
  onTransactions: 3800,
  p95: quantileChange(8, 4, [1, 7]),
  p99: quantileChange(12, 25, [14, 36]),
  maxP99IncreasePct: failed ? 10 : 50,
  p99LimitFailed: failed,
  reason,
});

test('a run whose p99 rose over its maxP99IncreasePct fails, as its test did, whatever its overhead verdict', () => {
  const measurement = stock.measurement;
  if (!measurement) throw new Error('the stock run holds a measurement');
  const over = 'p99 rose by [14.0, 36.0]%, wholly above maxP99IncreasePct 10%';
  const within = 'p99 change [14.0, 36.0]% is not wholly above maxP99IncreasePct 50%';
  expect(stock.verdict).toBe('pass');
  expect(runStatus({ ...stock, measurement: { ...measurement, latency: latency(true, over) } })).toEqual({
    status: 'fail',
    why: over,
  });
  expect(runStatus({ ...stock, measurement: { ...measurement, latency: latency(false, within) } })).toEqual({
    status: 'pass',
    why: null,
  });
  const missing = { measured: false, reason: 'sysbench printed no latency lines' } as const;
  expect(runStatus({ ...stock, measurement: { ...measurement, latency: missing } }).status).toBe('pass');
});

test('the overview line counts each status and names the runs that did not pass, by id', () => {
  expect(statusLine([stock, inclUsers, idle, dml])).toBe(
    '4 runs: 2 pass, 2 fail (incl-users-app: 4 lifecycle checks failed (logs-query, failed-queries, masks-password, rotation); ddl-dcl-from-cnf: measured an idle plugin).',
  );
  expect(statusLine([stock])).toBe('1 run: 1 pass.');
});

test('a result from before runs is named by its title', () => {
  expect(runIdOf({ ...stock, runId: undefined })).toBe('MariaDB server_audit');
  expect(runIdOf(dml)).toBe('dml-no-select');
});

test('a result no test measured on purpose (no measurement, no A/A) is "not measured", not an error', () => {
  const counted = { ...idle, verdict: 'error' as const, measurement: null, calibration: null, lifecycle: [] };
  expect(runStatus(counted)).toEqual({
    status: 'not measured',
    why: 'no overhead measured: its suite checks something else',
  });
  expect(statusLine([stock, counted].map((r) => r))).toBe(`2 runs: 1 pass, 1 not measured.`);
  const failedCheck = { ...counted, lifecycle: inclUsers.lifecycle };
  expect(runStatus(failedCheck).status).toBe('fail');
});
