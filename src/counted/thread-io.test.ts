import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import {
  armWrites,
  type IoReading,
  idleWrites,
  parseProcIo,
  processWrites,
  type ThreadIo,
} from './thread-io.ts';

const io = (syscw: number, wchar: number, syscr = 0) =>
  parseProcIo(
    `rchar: 1\nwchar: ${wchar}\nsyscr: ${syscr}\nsyscw: ${syscw}\nread_bytes: 0\nwrite_bytes: 4096\n`,
  );

/** A counted server's arms as recorded from /proc/<pid>/task/<tid>/io (fixtures/proc/thread-io, see its README). */
interface Recorded {
  own: number;
  background: number[];
  arms: {
    kind: 'off' | 'on';
    warmup: boolean;
    polled: number[];
    threadsCreated?: number;
    before: Record<string, [number, number, number]>;
    after: Record<string, [number, number, number]>;
  }[];
}

const recorded = (name: string): Recorded =>
  JSON.parse(
    readFileSync(new URL(`../../fixtures/proc/thread-io/${name}.json`, import.meta.url), 'utf8'),
  ) as Recorded;

const reading = (threads: Record<string, [number, number, number]>): Map<number, ThreadIo> =>
  new Map(
    Object.entries(threads).map(([tid, [syscr, syscw, wchar]]) => [Number(tid), io(syscw, wchar, syscr)]),
  );

/** What the channel counted before 2026-12-05: the threads the warm-up's processlist showed, summed the long way. */
function learntOnly(before: Map<number, ThreadIo>, after: Map<number, ThreadIo>, learnt: number[]) {
  let writeCalls = 0;
  let writeBytes = 0;
  for (const tid of learnt) {
    writeCalls += (after.get(tid)?.writeCalls ?? 0) - (before.get(tid)?.writeCalls ?? 0);
    writeBytes += (after.get(tid)?.writeBytes ?? 0) - (before.get(tid)?.writeBytes ?? 0);
  }
  return { writeCalls, writeBytes };
}

test('parses write calls and bytes from /proc/<pid>/task/<tid>/io', () => {
  expect(io(7, 900, 3)).toEqual({ writeCalls: 7, writeBytes: 900, readCalls: 3 });
});

test('counts every thread but the background and the harness; a new one from zero, an exited one is lost', () => {
  const before = new Map([
    [1, io(10, 1000)],
    [2, io(50, 5000)],
    [5, io(1, 1)],
    [6, io(0, 0)],
  ]);
  const after = new Map([
    [1, io(15, 1600)],
    [2, io(90, 9000)],
    [3, io(4, 400)],
    [5, io(9, 9)],
  ]);
  const writes = armWrites(before, after, { background: new Set([2]), own: 5 }, 2);
  expect(writes.io).toEqual({ writeCalls: 9, writeBytes: 1000, readCalls: 0 });
  expect(writes.served).toEqual([1, 3]);
  // Thread 6 exited in the arm; of the two threads the server created, the second reading found one (3).
  expect(writes).toMatchObject({ exited: [6], unseen: 1 });
});

test.for(['no-added-traffic', 'added-connections-no-churn'])(
  '%s: where the warm-up learnt every connection thread, the arms count what they counted before',
  (name) => {
    const r = recorded(name);
    const not = { background: new Set(r.background), own: r.own };
    const [warmup, ...arms] = r.arms;
    for (const arm of arms) {
      const before = reading(arm.before);
      const after = reading(arm.after);
      const writes = armWrites(before, after, not, arm.threadsCreated ?? 0);
      expect(writes.served.sort()).toEqual([...(warmup?.polled ?? [])].sort());
      expect(writes.io).toMatchObject(learntOnly(before, after, warmup?.polled ?? []));
      expect(writes.exited).toEqual([]);
    }
  },
);

/** The thread pool's recorded readings (fixtures/proc/thread-io/README.md): each with its time and the process's. */
type Triple = [number, number, number];
interface PoolReading {
  atMs: number;
  process: Triple;
  threads: Record<string, Triple>;
}
const pool = JSON.parse(
  readFileSync(new URL('../../fixtures/proc/thread-io/pool-of-threads.json', import.meta.url), 'utf8'),
) as {
  background: string[];
  idle: { before: PoolReading; after: PoolReading };
  arms: { transactions: number; before: PoolReading; after: PoolReading }[];
};
const poolReading = (r: PoolReading): IoReading => {
  const [syscr, syscw, wchar] = r.process;
  return { atMs: r.atMs, process: io(syscw, wchar, syscr), threads: reading(r.threads) };
};

test('under the thread pool, the threads the server had at set-up already hold the worker that serves sysbench', () => {
  const not = { background: new Set(pool.background.map(Number)), own: null };
  const [first, second] = pool.arms.map((arm) => {
    const before = poolReading(arm.before);
    const after = poolReading(arm.after);
    return {
      perThread: armWrites(before.threads, after.threads, not, 0).io,
      process: processWrites(before, after, null).io,
    };
  });
  // The per-connection sum found a tenth of the first arm's writes (a worker the pool started mid-arm) and none of
  // the second's: a worker of set-up served all of it. The process's counters hold them all.
  expect(first?.perThread.writeCalls).toBe(1554);
  expect(second?.perThread.writeCalls).toBe(0);
  expect(first?.process.writeCalls).toBe(14_087);
  expect(second?.process.writeCalls).toBe(14_347);
});

test("the pool's arm is the whole process's writes less its idle writes scaled to the arm's span", () => {
  const idle = idleWrites(poolReading(pool.idle.before), poolReading(pool.idle.after));
  expect(idle.io.writeCalls).toBe(403);
  expect(idle.seconds).toBeCloseTo(32.164, 3);
  const arm = pool.arms[0] as (typeof pool.arms)[number];
  const before = poolReading(arm.before);
  const after = poolReading(arm.after);
  const writes = processWrites(before, after, idle);
  // 25.545 s of the arm against 32.164 s idle: 403 × 0.794 = 320 write calls taken off.
  expect(writes.io.writeCalls).toBe(14_087 - 320);
  expect(writes.io.writeBytes).toBe(
    Math.round(after.process.writeBytes - before.process.writeBytes - (25_545 / 32_164) * idle.io.writeBytes),
  );
  // Every thread of the second reading counts, and nothing is lost: the process keeps exited threads' counters.
  expect(writes.served).toHaveLength(Object.keys(arm.after.threads).length);
  expect(writes).toMatchObject({ exited: [], unseen: 0 });
});

test('the process’s counters are its threads’ summed, when no thread exits', () => {
  for (const arm of pool.arms) {
    const before = poolReading(arm.before);
    const after = poolReading(arm.after);
    const threads = [...after.threads].reduce(
      (sum, [tid, end]) => sum + end.writeCalls - (before.threads.get(tid)?.writeCalls ?? 0),
      0,
    );
    expect(after.process.writeCalls - before.process.writeCalls).toBe(threads);
  }
});
