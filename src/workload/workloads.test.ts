import { totalmem } from 'node:os';
import { expect, test } from 'vitest';
import { seedTableSize } from './seed-scale.ts';
import { getWorkload, workloadNames, workloads } from './workloads.ts';

test.for(workloadNames)('workload %s is named after its key and runs oltp_read_write', (name) => {
  expect(getWorkload(name)).toMatchObject({ name, test: 'oltp_read_write' });
});

test('seed reproduces the seed report: 64 threads, 10 tables, 5 minutes, server defaults', () => {
  expect(workloads.seed).toMatchObject({ threads: 64, tables: 10, durationS: 300 });
  expect(workloads.seed.serverOptions).toEqual({});
});

test("seed's tables scale to this machine's memory (10M rows on 64 GiB); smoke and standard keep their size", () => {
  expect(workloads.seed.tableSize).toBe(seedTableSize(totalmem()));
  expect(workloads.smoke.tableSize).toBe(10_000);
  expect(workloads.standard.tableSize).toBe(100_000);
});

test('getWorkload names the choices for an unknown name', () => {
  expect(() => getWorkload('huge' as never)).toThrow(
    "Unknown workload 'huge': use one of quick, smoke, standard, seed",
  );
});

test('quick is smoke in blocks of 4 pairs, 6 s warm-ups and runs, with the same budget, and a 60 s PR gate (two blocks after the longest warm-up)', () => {
  const { smoke } = workloads;
  expect({
    ...workloads.quick,
    name: 'smoke',
    pairs: smoke.pairs,
    minWarmupS: smoke.minWarmupS,
    durationS: smoke.durationS,
    gate: smoke.gate,
  }).toEqual(smoke);
  expect(workloads.quick).toMatchObject({ pairs: 4, minWarmupS: 6, durationS: 6 });
  expect(workloads.quick.gate).toEqual({ budgetS: 60, targetHalfWidthPct: null });
});
