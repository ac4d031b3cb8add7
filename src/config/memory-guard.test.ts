import { expect, test } from 'vitest';
import { bufferPoolProblem, memAvailableBytes, sizeBytes } from './memory-guard.ts';

test.for([
  ['134217728', 134_217_728],
  ['128M', 134_217_728],
  ['2G', 2 * 1024 ** 3],
  ['1.5g', 1.5 * 1024 ** 3],
  ['512K', 524_288],
  ['70%', null],
  ['', null],
] as const)('%s is %s bytes', ([text, bytes]) => {
  expect(sizeBytes(text)).toBe(bytes);
});

test('MemAvailable is read from /proc/meminfo', () => {
  const meminfo = 'MemTotal:       24558292 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n';
  expect(memAvailableBytes(meminfo)).toBe(20_000_000 * 1024);
  expect(memAvailableBytes('MemTotal: 1 kB\n')).toBeNull();
});

test('a pool larger than what is free is refused, naming the run, the value and the override', () => {
  const runs: { id: string; startupOptions: Record<string, string> }[] = [
    { id: 'small', startupOptions: { 'loose-innodb_buffer_pool_size': '128M' } },
    { id: 'prod', startupOptions: { 'loose-innodb-buffer-pool-size': '96G' } },
  ];
  expect(bufferPoolProblem(runs, 20 * 1024 ** 3, 'AUDITBENCH_LARGE_POOL')).toBe(
    "run prod: innodb_buffer_pool_size=96G (96.0 GiB) is more than this host's MemAvailable (20.0 GiB): the run's server would starve the others here; give the run a smaller pool in its startupOptions, or set AUDITBENCH_LARGE_POOL=1 on a host with nothing else to protect",
  );
  expect(bufferPoolProblem(runs.slice(0, 1), 20 * 1024 ** 3, 'AUDITBENCH_LARGE_POOL')).toBeNull();
});
