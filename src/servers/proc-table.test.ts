import { afterEach, describe, expect, test, vi } from 'vitest';
import { argvIn, isAlive, isZombieIn, processState, startTicksIn, startTicksOf } from './proc-table.ts';

// Recorded from /proc/<pid>/stat on this project's machine; the second has a command name holding ') '.
const STAT = '27859 (cat) R 27855 27855 3027 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 55912 3133440 410';
const ODD = '4242 (x) S (y) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 77001 0 0';

describe('/proc/<pid>/stat and cmdline', () => {
  test('the start time is field 22, counted after the command name', () => {
    expect(startTicksIn(STAT)).toBe(55_912);
    expect(startTicksIn(ODD)).toBe(77_001);
    expect(startTicksIn('garbage')).toBeNull();
  });

  test('a zombie is told by its state', () => {
    expect(isZombieIn(STAT)).toBe(false);
    expect(isZombieIn('9 (mariadbd) Z 1 9 9 0 -1')).toBe(true);
  });

  test('argv is NUL-separated; an argument holding regex characters or a newline stays one argument', () => {
    expect(argvIn(Buffer.from('sleep\0--defaults-file=/tmp/auditbench-x|.*|y/my.cnf\0'))).toEqual([
      'sleep',
      '--defaults-file=/tmp/auditbench-x|.*|y/my.cnf',
    ]);
    expect(argvIn(Buffer.from('a\nb\0c\0'))).toEqual(['a\nb', 'c']);
  });

  test('this process is running, with the start time /proc gives', async () => {
    const ticks = await startTicksOf(process.pid);
    expect(ticks).toBeGreaterThan(0);
    expect(await processState(process.pid)).toEqual({ running: true, startTicks: ticks });
  });
});

describe('isAlive', () => {
  afterEach(() => vi.restoreAllMocks());
  const failingWith = (code: string) =>
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error(code), { code });
    });

  test('EPERM (another user’s live process) is alive', () => {
    failingWith('EPERM');
    expect(isAlive(4242)).toBe(true);
  });

  test('only ESRCH is gone', () => {
    failingWith('ESRCH');
    expect(isAlive(4242)).toBe(false);
  });

  test.skipIf(process.getuid?.() === 0)('pid 1 seen by an ordinary user (EPERM for real) is alive', () => {
    expect(isAlive(1)).toBe(true);
  });
});
