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

/**
 * What the given threads did between two readings. A thread missing from the first reading started since (it
 * counts from zero); one missing from the second exited, and its counts are lost, which the caller is told.
 */
export function ioBetween(
  before: ReadonlyMap<number, ThreadIo>,
  after: ReadonlyMap<number, ThreadIo>,
  tids: Iterable<number>,
): { io: ThreadIo; lostThreads: number[] } {
  const io = { ...NONE };
  const lostThreads: number[] = [];
  for (const tid of tids) {
    const end = after.get(tid);
    if (!end) {
      lostThreads.push(tid);
      continue;
    }
    const start = before.get(tid) ?? NONE;
    io.writeCalls += end.writeCalls - start.writeCalls;
    io.writeBytes += end.writeBytes - start.writeBytes;
    io.readCalls += end.readCalls - start.readCalls;
  }
  return { io, lostThreads };
}
