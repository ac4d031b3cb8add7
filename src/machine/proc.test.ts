import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseLoadAvg, parseProcessStat, parseProcStat } from './proc.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/proc/${name}`, import.meta.url), 'utf8');

describe('parseProcStat', () => {
  test('reads the aggregate cpu line of a recorded /proc/stat', () => {
    const times = parseProcStat(fixture('stat.txt'));
    expect(times).toMatchObject({
      user: 10_331,
      nice: 0,
      system: 6146,
      idle: 24_313,
      iowait: 1053,
      steal: 10,
    });
    expect(times.total).toBe(10_331 + 6146 + 24_313 + 1053 + 230 + 10);
  });

  test('reads one CPU’s line when asked for it', () => {
    expect(parseProcStat(fixture('stat.txt'), 0)).toMatchObject({ user: 4624, idle: 13_847, iowait: 80 });
    expect(() => parseProcStat(fixture('stat.txt'), 7)).toThrow("no 'cpu7 ' line");
  });

  test.for([
    ['no cpu line', 'intr 1 2 3\n', "no 'cpu ' line"],
    ['too few numbers', 'cpu  1 2 3\n', 'at least 8 numbers'],
  ])('names the problem: %s', ([, text, message]) => {
    expect(() => parseProcStat(text as string)).toThrow(message as string);
  });
});

describe('parseLoadAvg', () => {
  test('reads the three load averages', () => {
    expect(parseLoadAvg(fixture('loadavg.txt'))).toEqual({ load1: 1.13, load5: 0.55, load15: 0.21 });
  });

  test('rejects text that is not a load average', () => {
    expect(() => parseLoadAvg('x y z')).toThrow("/proc/loadavg must start with three numbers; got 'x y z'");
  });
});

describe('parseProcessStat', () => {
  test('reads pid, comm, ppid, CPU ticks and start time of a recorded /proc/1/stat', () => {
    expect(parseProcessStat(fixture('pid-stat-init.txt'))).toEqual({
      pid: 1,
      comm: 'process_api',
      ppid: 0,
      cpuTicks: 38 + 154,
      userTicks: 38,
      startTicks: 22,
    });
  });

  test('a comm with spaces and a closing parenthesis does not shift the fields', () => {
    const text = '812 (tmux: a) b) S 1 812 812 0 -1 4194560 1 0 0 0 70 30 0 0 20 0 1 0 4500 1 1';
    expect(parseProcessStat(text)).toMatchObject({ pid: 812, comm: 'tmux: a) b', ppid: 1, cpuTicks: 100 });
  });

  test('an empty read (the process exited) is null; a cut line is an error', () => {
    expect(parseProcessStat('')).toBeNull();
    expect(() => parseProcessStat('5 (sh) S 1 2')).toThrow('too short or not numeric');
  });
});
