import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { watchReportLines } from './sysbench-runner.ts';

test('each per-second line is reported once, with its second, even split across chunks', () => {
  const stdout = new PassThrough();
  const seen: number[] = [];
  watchReportLines(stdout, (atS) => seen.push(atS));
  stdout.write('Threads started!\n\n[ 1s ] thds: 4 tps: 801.2 qps: 16');
  expect(seen).toEqual([]);
  stdout.write(
    '024.3 (r/w/o: 11216.0/3204.0/1604.0) lat (ms,95%): 7.43 err/s: 0.00 reconn/s: 0.00\n[ 2s ] thds: 4',
  );
  stdout.write(' tps: 790.0\nSQL statistics:\n    queries performed:\n[ 10s ] thds: 4 tps: 1.0\n');
  expect(seen).toEqual([1, 2, 10]);
});
