import { expect, test } from 'vitest';
import { toyProfile } from '../../test/support/toy-profile.ts';
import { mergeMeasuredTraffic } from '../config/measured-traffic.ts';
import { resolveRun } from '../runs/runs.ts';
import { getWorkload } from '../workload/workloads.ts';
import { countedUnderPool, countFailed, countsAtOnce, ratesKey } from './counted-cost.ts';
import { runIdentity } from './run-identity.ts';

// bench's counted test when the count throws (its server under callgrind, the threads it attributes): the run's
// wall-clock verdict stands, and the count says why in one line, never a stack.
const threw = new Error(
  "The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's\n    at checkPolled (src/counted/counted-ab.ts:361:11)",
);

test('a count that throws is a skipped counted test with its first line', () => {
  expect(countFailed('auto', 'events', threw)).toEqual({
    skip: "not counted: The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's",
  });
});

test('under AUDITBENCH_COUNTED=on, which asks for the count, the same line fails the run', () => {
  const outcome = countFailed('on', 'events', threw);
  expect(outcome.failure).toBe(
    "events: AUDITBENCH_COUNTED=on, but the count failed: The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's",
  );
  expect(outcome.error).toBeUndefined();
});

test('something thrown that is not an Error, or an empty message, still reads as one line', () => {
  expect(countFailed('auto', 'events', 'valgrind: killed')).toEqual({
    skip: 'not counted: valgrind: killed',
  });
  expect(countFailed('auto', 'events', new TypeError('\n'))).toEqual({ skip: 'not counted: TypeError' });
});

test('runs share a rates reading at one point, startup options and transactions; a thread pool or a script reads its own', () => {
  const workload = getWorkload('standard');
  const id = ({ added, ...run }: Record<string, unknown>) => {
    const traffic = mergeMeasuredTraffic(undefined, added ? { added } : undefined, null);
    const resolved = resolveRun({ plugin: toyProfile, ...run } as never, toyProfile, null, traffic);
    return runIdentity(resolved, workload, { cpus: 2, external: false });
  };
  const stock = ratesKey(id({ id: 'server_audit' }));
  expect(ratesKey(id({ id: 'general_log' }))).toBe(stock);
  expect(ratesKey(id({ id: 'pool', startupOptions: { thread_handling: 'pool-of-threads' } }))).not.toBe(
    stock,
  );
  expect(ratesKey(id({ id: 'errors', added: { failedLoginsPerS: 5 } }))).toBe(stock);
  expect(ratesKey(id({ id: 'four', threads: 4 }))).not.toBe(stock);
  expect(countsAtOnce(2)).toBe(3);
  expect(countsAtOnce(2, true)).toBe(1);
  expect(countedUnderPool(id({ id: 'pool', startupOptions: { thread_handling: 'pool-of-threads' } }))).toBe(
    true,
  );
  expect(countedUnderPool(id({ id: 'stock' }))).toBe(false);
});
