import { describe, expect, test } from 'vitest';
import { parseStatNameAndParent, parseVmRssBytes } from './resident-memory.ts';

// Recorded from /proc/<pid>/status of a mariadbd 10.11 on this project's machine (trimmed).
const STATUS = [
  'Name:\tmariadbd',
  'Umask:\t0027',
  'State:\tS (sleeping)',
  'VmPeak:\t 1482412 kB',
  'VmHWM:\t  143216 kB',
  'VmRSS:\t  141904 kB',
  'RssAnon:\t   98412 kB',
  'Threads:\t18',
].join('\n');

describe('resident memory from /proc', () => {
  test('VmRSS is read in bytes', () => {
    expect(parseVmRssBytes(STATUS)).toBe(141_904 * 1024);
  });

  test('a status without VmRSS (a kernel thread) gives null', () => {
    expect(parseVmRssBytes('Name:\tkworker/0:1\nState:\tI (idle)\n')).toBeNull();
  });

  test('the process name may hold spaces and parentheses; the parent follows the state', () => {
    expect(parseStatNameAndParent('4242 (mariadbd) S 4100 4242 4242 0 -1 4194560')).toEqual({
      comm: 'mariadbd',
      ppid: 4100,
    });
    expect(parseStatNameAndParent('17 (odd (name) x) R 1 17 17 0')).toEqual({
      comm: 'odd (name) x',
      ppid: 1,
    });
    expect(parseStatNameAndParent('garbage')).toBeNull();
  });
});
