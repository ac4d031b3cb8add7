import { expect, test } from 'vitest';
import { workloads } from '../workload/workloads.ts';
import { describeCounted } from './count-run.ts';
import { countedJob } from './counted-ab.ts';

const plan = { events: 150, seed: 42, pairs: 3 };

test('the identity names the counts of added operations per arm, never the rates they came from', () => {
  const workload = countedJob(workloads.smoke);
  const added = {
    rates: [['connections', 20]] as ['connections', number][],
    wallClockTps: 1_000,
    failingUser: 'app',
  };
  expect(describeCounted(workload, plan, added)).toBe(
    'oltp_read_write 4×10000, 150 transactions per arm, then 3 connections, seed 42, 1 thread',
  );
  // Another machine twice as fast sends half as many: a different identity, so the two are not compared.
  expect(describeCounted(workload, plan, { ...added, wallClockTps: 2_000 })).toContain('then 2 connections');
  expect(describeCounted(workload, plan)).toBe(
    'oltp_read_write 4×10000, 150 transactions per arm, seed 42, 1 thread',
  );
});
