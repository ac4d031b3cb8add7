import { expect, test } from 'vitest';
import { mountPointIn, mountsAtOrUnder } from './mounts.ts';

const line = (target: string) => `36 26 7:0 / ${target} rw,relatime - ext4 /dev/loop0 rw`;
const mountinfo = [
  line('/'),
  line('/tmp/auditbench-a'),
  line('/tmp/auditbench-a/data/fault'),
  line('/tmp/auditbench-ab/data/fault'),
  line('/tmp/x/auditbench-a/data'),
  line('/tmp/auditbench-a\\040b/data'),
  '',
].join('\n');

test('mount points are decoded from mountinfo’s escapes', () => {
  expect(mountPointIn(line('/tmp/a\\040b\\011c'))).toBe('/tmp/a b\tc');
  expect(mountPointIn('')).toBeNull();
});

test('only the folder itself and what is inside it match: no substring, no longer name', () => {
  expect(mountsAtOrUnder(mountinfo, '/tmp/auditbench-a')).toEqual([
    '/tmp/auditbench-a',
    '/tmp/auditbench-a/data/fault',
  ]);
  expect(mountsAtOrUnder(mountinfo, '/tmp/auditbench-a b')).toEqual(['/tmp/auditbench-a b/data']);
});

test('a folder named with regular-expression characters matches only itself', () => {
  expect(
    mountsAtOrUnder(`${mountinfo}\n${line('/tmp/auditbench-x|.*|y/m')}`, '/tmp/auditbench-x|.*|y'),
  ).toEqual(['/tmp/auditbench-x|.*|y/m']);
  expect(mountsAtOrUnder(mountinfo, '/tmp/auditbench-.*')).toEqual([]);
});
