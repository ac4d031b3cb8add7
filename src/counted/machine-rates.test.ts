import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { servingUserTicks, type TickReading, timeWrites, writePriceAt } from './machine-rates.ts';

test('timing write() gives kernel seconds per call and leaves no file behind', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'auditbench-writes-'));
  try {
    const perWrite = timeWrites(dir, 47);
    // A write() of 47 bytes takes the kernel well under a millisecond anywhere; zero would mean nothing was timed.
    expect(perWrite).toBeGreaterThan(0);
    expect(perWrite).toBeLessThan(1e-3);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write()’s price at the arms’ record size lies on the line between the sizes timed, the nearest outside them', () => {
  const timings = [
    { bytes: 128, seconds: 2e-6 },
    { bytes: 32, seconds: 1e-6 },
    { bytes: 512, seconds: 4e-6 },
  ];
  expect(writePriceAt(timings, 80)).toBeCloseTo(1.5e-6, 15);
  expect(writePriceAt(timings, 320)).toBeCloseTo(3e-6, 15);
  expect(writePriceAt(timings, 8)).toBe(1e-6);
  expect(writePriceAt(timings, 4096)).toBe(4e-6);
  expect(writePriceAt([], 47)).toBeNull();
});

const ticks = (processUser: number, tasks: [number, number][]): TickReading => ({
  tasks: new Map(tasks.map(([tid, user]) => [tid, { user }])),
  process: processUser + 50,
  processUser,
  core: { idle: 0, total: 1000 },
});

test('what served sysbench: the processlist’s threads, or under the pool the whole process less its idle window', () => {
  // Thread 7 served sysbench; 3 is InnoDB's; 9 is a pool worker that exited, its ticks kept in the process's.
  const first = ticks(1000, [
    [3, 100],
    [7, 400],
    [9, 200],
  ]);
  const after = ticks(1900, [
    [3, 160],
    [7, 1100],
  ]);
  expect(servingUserTicks(first, after, { tids: [7] })).toBe(700);
  expect(servingUserTicks(first, after, { tids: [7, 12] })).toBe(700);
  expect(servingUserTicks(first, after, { idleUserTicks: 20 })).toBe(880);
});
