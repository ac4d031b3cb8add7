import { expect, test } from 'vitest';
import { isFiller, privateRoot } from './fault-fs.ts';

test('the fault filesystem goes only into a datadir inside the harness temp dir', () => {
  expect(privateRoot('/tmp/auditbench-abc/data', '/tmp')).toBe('/tmp/auditbench-abc');
  expect(() => privateRoot('/var/lib/mysql', '/tmp')).toThrow(/only inside the harness's own temp dir/);
  expect(() => privateRoot('/tmp/other/data', '/tmp')).toThrow(/datadir is \/tmp\/other\/data/);
});

test('filler files are not logs', () => {
  expect(isFiller('auditbench_faultlog/filler.1m')).toBe(true);
  expect(isFiller('auditbench_faultlog/server_audit.log')).toBe(false);
});
