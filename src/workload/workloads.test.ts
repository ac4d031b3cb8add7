import { expect, test } from 'vitest';
import { getWorkload, workloadNames, workloads } from './workloads.ts';

test.for(workloadNames)('workload %s is named after its key and runs oltp_read_write', (name) => {
  expect(getWorkload(name)).toMatchObject({ name, test: 'oltp_read_write' });
});

test('seed reproduces the seed report: 64 threads, 10 × 10M rows, 5 minutes, server defaults', () => {
  expect(workloads.seed).toMatchObject({ threads: 64, tables: 10, tableSize: 10_000_000, durationS: 300 });
  expect(workloads.seed.serverOptions).toEqual({});
});

test('getWorkload names the choices for an unknown name', () => {
  expect(() => getWorkload('huge' as never)).toThrow(
    "Unknown workload 'huge': use one of smoke, standard, seed",
  );
});
