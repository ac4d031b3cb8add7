import { readdir, readFile } from 'node:fs/promises';
import { type Clock, realClock } from '../machine/clock.ts';

/** What Linux counts per thread in /proc/<pid>/task/<tid>/io: write-family syscalls and the bytes they passed. */
export interface ThreadIo {
  /** write, writev, pwrite… calls (syscw). */
  writeCalls: number;
  /** Bytes those calls passed (wchar), to files and sockets alike. */
  writeBytes: number;
  readCalls: number;
}

const NONE: ThreadIo = { writeCalls: 0, writeBytes: 0, readCalls: 0 };

/** Parses one /proc/…/io file. */
export function parseProcIo(text: string): ThreadIo {
  const field = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { writeCalls: field('syscw'), writeBytes: field('wchar'), readCalls: field('syscr') };
}

/** Every thread's counters now, by thread id; a thread that exits while it is read is left out. */
export async function readThreadIo(pid: number): Promise<Map<number, ThreadIo>> {
  const out = new Map<number, ThreadIo>();
  const tids = await readdir(`/proc/${pid}/task`);
  for (const tid of tids) {
    const text = await readFile(`/proc/${pid}/task/${tid}/io`, 'utf8').catch(() => null);
    if (text !== null) out.set(Number(tid), parseProcIo(text));
  }
  return out;
}

/** Reads /proc/<pid>/io: the whole process's counters, threads that have exited included. */
export async function readProcessIo(pid: number): Promise<ThreadIo> {
  return parseProcIo(await readFile(`/proc/${pid}/io`, 'utf8'));
}

/** One reading of a counted arm's bounds: every thread's counters, the process's, and when (ms). */
export interface IoReading {
  threads: Map<number, ThreadIo>;
  process: ThreadIo;
  atMs: number;
}

export async function readIo(pid: number, clock: Clock = realClock): Promise<IoReading> {
  const threads = await readThreadIo(pid);
  return { threads, process: await readProcessIo(pid), atMs: clock.nowMs() };
}

/** What the whole process wrote over a stretch with no client but the harness connected, and how long it lasted. */
export interface IdleWrites {
  io: ThreadIo;
  seconds: number;
}

const minus = (a: ThreadIo, b: ThreadIo): ThreadIo => ({
  writeCalls: a.writeCalls - b.writeCalls,
  writeBytes: a.writeBytes - b.writeBytes,
  readCalls: a.readCalls - b.readCalls,
});

export const idleWrites = (before: IoReading, after: IoReading): IdleWrites => ({
  io: minus(after.process, before.process),
  seconds: (after.atMs - before.atMs) / 1000,
});

/**
 * The thread pool's idle writes: the whole process over `seconds` (an arm's length, kept within 1–10 s: on a busy
 * machine an arm under valgrind stretched to 73 s) with only the harness connected. Under valgrind the server's timers
 * and InnoDB's background threads wake a few times a second, each a thread switch that writes a byte to valgrind's
 * pipe (about 12 write calls a second recorded); each arm's writes are taken less these, scaled to its span
 * (`processWrites`).
 */
export async function idleWindow(
  pid: number,
  seconds: number,
  clock: Clock = realClock,
): Promise<IdleWrites> {
  const before = await readIo(pid, clock);
  await clock.sleepMs(Math.min(10_000, Math.max(1000, Math.round(seconds * 1000))));
  return idleWrites(before, await readIo(pid, clock));
}

/**
 * An arm's writes under the thread pool: the whole process's between the two readings, less its idle writes scaled to
 * the arm's span. The pool's workers serve every connection, the harness's and the server's timers included, and
 * MariaDB 10.11 says of none which it is (every thread's comm reads `mariadbd`, the processlist's TID reads 0), so no
 * set of threads can stand for "the connections'"; the process's own counters also keep the threads that exited
 * (a worker idle past thread_pool_idle_timeout), so nothing is lost. What it adds beside the per-thread sum is the
 * background threads' work the arm set off (page flushes, purge), alike in off and on arms.
 */
export function processWrites(before: IoReading, after: IoReading, idle: IdleWrites | null): ArmWrites {
  const spanS = (after.atMs - before.atMs) / 1000;
  const scale = idle && idle.seconds > 0 ? spanS / idle.seconds : 0;
  const arm = minus(after.process, before.process);
  const io = {
    writeCalls: Math.round(arm.writeCalls - scale * (idle?.io.writeCalls ?? 0)),
    writeBytes: Math.round(arm.writeBytes - scale * (idle?.io.writeBytes ?? 0)),
    readCalls: Math.round(arm.readCalls - scale * (idle?.io.readCalls ?? 0)),
  };
  return { io, served: [...after.threads.keys()], exited: [], unseen: 0 };
}

/** The threads an arm's writes are not counted for. */
export interface NotServing {
  /** Every thread the server ran before any client but the harness connected: InnoDB's, the main thread, timers. */
  background: ReadonlySet<number>;
  /** The harness's own connection, which sends the markers (null where the server does not show its thread id). */
  own: number | null;
}

/** One arm's writes by the threads that served clients, and how many such threads exited before the second reading. */
export interface ArmWrites {
  io: ThreadIo;
  /** The threads counted. */
  served: number[];
  /** Connection threads of the first reading missing from the second: what they did in the arm is lost. */
  exited: number[];
  /** Connection threads the server created in the arm that the second reading did not find (they came and went). */
  unseen: number;
}

/**
 * What the connection threads did between two readings, whichever connection threads those were: every thread of the
 * second reading except the server's background ones and the harness's own. A connection thread lives on in the
 * server's thread cache after its client leaves and serves a later client, so any of them may serve an arm's
 * sysbench or added connections; an idle one adds only what valgrind's scheduler does (one-byte pipe reads and
 * writes). A thread that started since the first reading counts from zero. `createdThreads` is the growth of the
 * server's Threads_created counter over the arm: created threads the second reading does not show are `unseen`.
 */
export function armWrites(
  before: ReadonlyMap<number, ThreadIo>,
  after: ReadonlyMap<number, ThreadIo>,
  not: NotServing,
  createdThreads: number,
): ArmWrites {
  const connection = (tid: number) => !not.background.has(tid) && tid !== not.own;
  const io = { ...NONE };
  const served: number[] = [];
  for (const [tid, end] of after) {
    if (!connection(tid)) continue;
    const start = before.get(tid) ?? NONE;
    served.push(tid);
    io.writeCalls += end.writeCalls - start.writeCalls;
    io.writeBytes += end.writeBytes - start.writeBytes;
    io.readCalls += end.readCalls - start.readCalls;
  }
  const exited = [...before.keys()].filter((tid) => connection(tid) && !after.has(tid));
  const started = served.filter((tid) => !before.has(tid)).length;
  return { io, served, exited, unseen: Math.max(0, createdThreads - started) };
}
