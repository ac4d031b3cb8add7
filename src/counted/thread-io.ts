import { readdir, readFile } from 'node:fs/promises';

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
