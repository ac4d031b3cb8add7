import { expect, test } from 'vitest';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
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
  ['an idle plugin', { verdict: 'fail' }, 'measured an idle plugin'],
  // As measured live: about 0%, within the limit.
  ['an idle plugin whose overhead passed', { verdict: 'pass' }, 'measured an idle plugin'],
  [
    'an overhead over its limit',
    { verdict: 'fail', measurement: null },
    'overhead 1.3% against its 50% limit',
  ],
  ['no measurement', { verdict: 'error', measurement: null }, 'no measurement finished'],
] as const)('why a run failed: %s', ([, change, why]) => {
  expect(runStatus({ ...idle, ...change }).why).toBe(why);
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
