import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { SysbenchRunner } from '../bench/subject.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import { parseProcessStat, parseProcStat } from '../machine/proc.ts';
import { runSteps, type Step } from '../plugins/steps.ts';
import type { CountedRecord, MachineRates } from '../results/counted-record.ts';
import { serverProcessUnder } from '../servers/resident-memory.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import { connectionTids, ownThread } from './connection-threads.ts';
import { predict } from './prediction.ts';
import { isThreadPool, serverThreadHandling } from './thread-handling.ts';

/** Seconds of plugin-off sysbench the readings span: ~1,000 clock ticks of a saturated core. */
export const RATES_RUN_S = 10;
/** write() calls the microbenchmark times at each size, three times over; the median is kept. */
const TIMED_WRITES = 50_000;
/** The record sizes write() is timed at, right after the rates run; the arms' size is interpolated between them. */
export const WRITE_SIZES = [32, 128, 512];

interface TaskTicks {
  user: number;
}

/** One reading of the server's CPU, in clock ticks. */
export interface TickReading {
  /** Every thread's user ticks, by thread id. */
  tasks: Map<number, TaskTicks>;
  /** The whole process's user + system ticks, exited threads included. */
  process: number;
  /** The whole process's user ticks, exited threads included. */
  processUser: number;
  /** The idle and total ticks of the server's core (every CPU when it is not pinned). */
  core: { idle: number; total: number };
}

async function readTicks(pid: number, core: number | undefined): Promise<TickReading> {
  const tasks = new Map<number, TaskTicks>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = parseProcessStat(await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => ''));
    if (stat) tasks.set(Number(tid), { user: stat.userTicks });
  }
  const own = parseProcessStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  if (!own) throw new Error(`the server process ${pid} exited`);
  const cpu = parseProcStat(await readFile('/proc/stat', 'utf8'), core);
  return {
    tasks,
    process: own.cpuTicks,
    processUser: own.userTicks,
    core: { idle: cpu.idle + cpu.iowait, total: cpu.total },
  };
}

/**
 * Who served sysbench, for its user CPU: the threads the processlist showed (one-thread-per-connection), or under the
 * thread pool the whole process less what it did in an idle window as long as the run (`idleUserTicks`). The pool's
 * workers serve every connection in turn and MariaDB 10.11 names none of them (each thread's comm reads `mariadbd`,
 * the processlist's TID reads 0), so the process stands for them. It also holds the background threads' user CPU
 * that the load set off (purge, page flushes), which the pool's counted instructions (tp_callback) leave out: the
 * price of an instruction, and the prediction, err high by that share.
 */
export type Serving = { tids: readonly number[] } | { idleUserTicks: number };

/** The user ticks of what served sysbench between two readings (see `Serving`). */
export function servingUserTicks(first: TickReading, after: TickReading, serving: Serving): number {
  if ('idleUserTicks' in serving) return after.processUser - first.processUser - serving.idleUserTicks;
  return serving.tids.reduce(
    (sum, tid) => sum + (after.tasks.get(tid)?.user ?? 0) - (first.tasks.get(tid)?.user ?? 0),
    0,
  );
}

const ticksPerSecond = async (): Promise<number> => {
  const { stdout } = await execa('getconf', ['CLK_TCK']);
  const value = Number(stdout.trim());
  if (!(value > 0)) throw new Error(`getconf CLK_TCK gave '${stdout.trim()}'`);
  return value;
};

/**
 * Kernel seconds per write() of `size` bytes appended to a file in `dir`: the median of three timings of
 * TIMED_WRITES calls, by this process's system time. Its user time is left out: it is Node's own, and the libc wrapper
 * a server calls costs next to nothing beside the kernel's share.
 */
export function timeWrites(dir: string, size: number): number {
  const file = path.join(dir, `auditbench-write-timing-${process.pid}.tmp`);
  const record = Buffer.alloc(Math.max(1, Math.round(size)), 0x61);
  const timings: number[] = [];
  try {
    for (let round = 0; round < 3; round++) {
      const fd = openSync(file, 'a');
      try {
        const before = process.cpuUsage();
        for (let i = 0; i < TIMED_WRITES; i++) writeSync(fd, record);
        timings.push(process.cpuUsage(before).system / 1e6 / TIMED_WRITES);
      } finally {
        closeSync(fd);
      }
    }
  } finally {
    rmSync(file, { force: true });
  }
  return timings.sort((a, b) => a - b)[1] as number;
}

/** A write()'s price at `size` bytes: linear between the timed sizes, the nearest one's outside them. */
export function writePriceAt(
  timings: readonly { bytes: number; seconds: number }[],
  size: number,
): number | null {
  const sorted = [...timings].sort((a, b) => a.bytes - b.bytes);
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last) return null;
  if (size <= first.bytes) return first.seconds;
  if (size >= last.bytes) return last.seconds;
  const upper = sorted.findIndex((t) => t.bytes >= size);
  const lo = sorted[upper - 1] as { bytes: number; seconds: number };
  const hi = sorted[upper] as { bytes: number; seconds: number };
  return lo.seconds + ((hi.seconds - lo.seconds) * (size - lo.bytes)) / (hi.bytes - lo.bytes);
}

/** The directory the plugin's log is written to (`logFile` relative to the data directory), or the data directory. */
async function logDirectory(server: StartedServer, logFile: string | null): Promise<string> {
  const { rows } = await server.query('SELECT @@datadir AS dir');
  return path.join(String(rows[0]?.dir ?? ''), logFile ? path.dirname(logFile) : '.');
}

/**
 * Reads this machine's rates on the wall-clock server, right after its measurement: the plugin off, sysbench runs
 * the measured job for RATES_RUN_S with the server pinned as the measurement pinned it, and /proc gives the whole
 * server's CPU and the user CPU of the threads that served sysbench; then write() is timed beside the plugin's log
 * at WRITE_SIZES. A reading that cannot be taken is said in
 * `failed`, never thrown: the count it goes with stands without it.
 */
export async function readMachineRates(server: StartedServer, opts: RatesOptions): Promise<MachineRates> {
  try {
    return await readRates(server, opts);
  } catch (error) {
    return unread(`the readings failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface RatesOptions {
  job: SysbenchJob;
  pinned: boolean;
  turnOff: Step[];
  runner: SysbenchRunner;
  /** The plugin's log file relative to the data directory (the profile's `log.file`): write() is timed beside it. */
  logFile: string | null;
  /** What the run's span is read on and its waits taken on (the real clock when none is given). */
  clock?: Clock;
}

const unread = (failed: string): MachineRates => ({
  transactions: 0,
  seconds: 0,
  serverCpuPerTx: 0,
  connectionUserPerTx: 0,
  coresUsed: 0,
  coresAvailable: 0,
  idleShare: 1,
  writeTimings: [],
  secondsPerWrite: null,
  writeSize: null,
  failed,
});

async function readRates(server: StartedServer, opts: RatesOptions): Promise<MachineRates> {
  const root = server.processId?.() ?? null;
  const pid = root === null ? null : await serverProcessUnder(root);
  if (pid === null) return unread('the server process was not found, so its CPU could not be read');
  await runSteps(server, opts.turnOff, 'Turning the plugin off for the machine rates');
  const pinned = opts.pinned && server.pinCpus !== undefined && availableParallelism() > 1;
  if (pinned) await server.pinCpus?.('0');
  const coresAvailable = pinned ? 1 : availableParallelism();
  const hz = await ticksPerSecond();
  const dir = await logDirectory(server, opts.logFile);
  const pool = isThreadPool(await serverThreadHandling(server));
  const core = pinned ? 0 : undefined;
  const span = await plainRun(server, opts, { pid, core, pinned, pool });
  if ('failed' in span) return unread(span.failed);
  const { run, first, after, seconds } = span;
  const serving: Serving = pool
    ? { idleUserTicks: await idleUserTicks(pid, core, seconds, opts.clock ?? realClock) }
    : { tids: span.tids };
  if (!pool && span.tids.length === 0) return unread('the processlist showed no thread serving sysbench');
  const transactions = run.transactions;
  const serverS = (after.process - first.process) / hz;
  return {
    transactions,
    seconds,
    serverCpuPerTx: serverS / transactions,
    connectionUserPerTx: servingUserTicks(first, after, serving) / hz / transactions,
    coresUsed: serverS / seconds,
    coresAvailable,
    idleShare: (after.core.idle - first.core.idle) / Math.max(1, after.core.total - first.core.total),
    // Timed now, in the same minute as the transaction's cost, at sizes around any plugin's record.
    writeTimings: WRITE_SIZES.map((bytes) => ({ bytes, seconds: timeWrites(dir, bytes) })),
    secondsPerWrite: null,
    writeSize: null,
    failed: null,
  };
}

/** The process's user ticks over `seconds` with no client but the harness: what the pool's figure is taken less. */
async function idleUserTicks(
  pid: number,
  core: number | undefined,
  seconds: number,
  clock: Clock,
): Promise<number> {
  const start = await readTicks(pid, core);
  await clock.sleepMs(Math.round(seconds * 1000));
  return (await readTicks(pid, core)).processUser - start.processUser;
}

/**
 * The plugin-off sysbench run of RATES_RUN_S, read at its two ends, and the threads the processlist showed serving it
 * (none looked for under the pool, whose processlist shows TID 0), or why it could not be read.
 */
async function plainRun(
  server: StartedServer,
  opts: RatesOptions,
  at: { pid: number; core: number | undefined; pinned: boolean; pool: boolean },
): Promise<
  | { run: { transactions: number }; first: TickReading; after: TickReading; seconds: number; tids: number[] }
  | { failed: string }
> {
  const own = await ownThread(server);
  const clock = opts.clock ?? realClock;
  // The first reading once sysbench's threads are connected: its start-up would count as the core's idle time.
  let before: Promise<TickReading | null> | undefined;
  let startedMs = 0;
  let threadsUp: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    threadsUp = resolve;
  });
  const running = opts.runner.run(server.connection, opts.job, {
    durationS: RATES_RUN_S,
    ...(at.pinned ? { cpus: '1' } : {}),
    onThreadsStarted: () => {
      startedMs = clock.nowMs();
      before = readTicks(at.pid, at.core).catch(() => null);
      threadsUp();
    },
  });
  // sysbench keeps its connections for the whole run; one look at the processlist, once they are up, finds them.
  await Promise.race([connected, running]);
  await clock.sleepMs(1000);
  const tids = at.pool ? [] : await connectionTids(server, own.id).catch(() => []);
  const run = await running;
  const after = await readTicks(at.pid, at.core);
  const seconds = (clock.nowMs() - startedMs) / 1000;
  if (!run.ok) return { failed: `the plugin-off sysbench run failed: ${run.reason}` };
  if (!before) return { failed: "sysbench never said its threads had started, so the run's span is unknown" };
  const first = await before;
  if (!first) return { failed: 'the server process could not be read when sysbench started' };
  return { run: run.result, first, after, seconds, tids };
}

/**
 * The counted record with its prediction: a write()'s price at the arms' added record size (added bytes ÷ added
 * calls, between the sizes timed with the rates), then the counts priced at the machine's rates beside the measured
 * overhead. A record refused as not comparable gets none: its figures are not the plugin's cost.
 */
export function withPrediction(
  counted: CountedRecord,
  rates: MachineRates,
  measured: { pct: number; ci95: [number, number] | null } | null,
): CountedRecord {
  if (counted.comparable?.refused) return counted;
  const { writeCalls, writeBytes } = counted.figures;
  const writeSize = writeCalls.addedPerTx >= 1 ? writeBytes.addedPerTx / writeCalls.addedPerTx : null;
  const price = writeSize === null ? null : writePriceAt(rates.writeTimings, writeSize);
  const priced = price === null ? rates : { ...rates, writeSize, secondsPerWrite: price };
  return { ...counted, prediction: predict({ rates: priced, figures: counted.figures, measured }) };
}
