import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { ConnectionOptions } from '../servers/started-server.ts';
import { parseLatencyLines } from './latency-lines.ts';
import {
  cleanupArgs,
  createDatabaseArgs,
  eventsRunArgs,
  prepareArgs,
  runArgs,
  sysbenchDatabase,
  sysbenchEnv,
} from './sysbench-args.ts';
import { judgeSysbenchRun, type SysbenchExit, type SysbenchRun, withDiagnostics } from './sysbench-run.ts';
import type { SysbenchJob } from './workload.ts';

export interface SysbenchOptions {
  /** Aborting kills sysbench (SIGTERM, then SIGKILL) and rejects. */
  signal?: AbortSignal;
}

export interface RunOptions extends SysbenchOptions {
  /** How long this run sends transactions (--time): the plan's, which the job does not carry. */
  durationS: number;
  /** Called when sysbench prints 'Threads started!': its clock for the per-second lines starts here. */
  onThreadsStarted?: () => void;
  /**
   * Called as each per-second line (`[ 5s ] thds: …`) arrives, with its second on sysbench's clock: the arrival
   * times place that clock on ours, so switches can be timed to its report boundaries. `line` is the whole line.
   */
  onReportLine?: (atS: number, line: string) => void;
  /** CPU list for taskset, e.g. '1', to keep sysbench off the server's core. */
  cpus?: string;
  /**
   * Run the test (or traffic.script) inside latency-wrapper.lua, which times each transaction: the result then
   * carries `latency`, per-slot bucket counts, or the reason there are none.
   */
  latency?: boolean;
}

const createDatabaseScript = fileURLToPath(new URL('./create-database.lua', import.meta.url));
const latencyWrapperScript = fileURLToPath(new URL('./latency-wrapper.lua', import.meta.url));
// sysbench needs time beyond --time to connect its threads and finish in-flight transactions;
// past this it is hung (e.g. on a stalled server) and gets killed.
const RUN_GRACE_MS = 120_000;
// A sysbench blocked in a socket read can outlive SIGTERM.
const FORCE_KILL_AFTER_MS = 5_000;

/**
 * Creates database `auditbench` if missing, drops the workload's sbtest tables and loads them afresh.
 * Rejects with sysbench's diagnostics when a step fails.
 */
export async function prepareSysbench(
  conn: ConnectionOptions,
  job: SysbenchJob,
  opts: SysbenchOptions = {},
): Promise<void> {
  const what = `${job.test} (${job.tables} tables × ${job.tableSize} rows)`;
  await sysbenchStep(
    `create database '${sysbenchDatabase}'`,
    createDatabaseArgs(conn, createDatabaseScript),
    conn,
    opts,
  );
  // A DBA's script need not have a cleanup command: its own prepare builds (and rebuilds) its schema.
  if (job.script) {
    await sysbenchStep(`prepare of traffic.script ${job.script}`, prepareArgs(conn, job), conn, opts);
    return;
  }
  await sysbenchStep(`cleanup of ${what}`, cleanupArgs(conn, job), conn, opts);
  await sysbenchStep(`prepare of ${what}`, prepareArgs(conn, job), conn, opts);
}

/** Drops the workload's sbtest tables. */
export async function cleanupSysbench(
  conn: ConnectionOptions,
  job: SysbenchJob,
  opts: SysbenchOptions = {},
): Promise<void> {
  await sysbenchStep(`cleanup of ${job.test}`, cleanupArgs(conn, job), conn, opts);
}

const STANDARD_FORM =
  "its report must have sysbench's standard form: one transaction per call of event(), sysbench's own per-second lines and summary, no report hooks of its own";

/** One measured (or warm-up) run against tables prepareSysbench loaded. */
export async function runSysbench(
  conn: ConnectionOptions,
  job: SysbenchJob,
  opts: RunOptions,
): Promise<SysbenchRun> {
  const { durationS } = opts;
  const [inner, ...rest] = runArgs(conn, job, durationS);
  // The wrapper learns what to time from its environment: sysbench refuses options a script does not declare.
  const args = opts.latency ? [latencyWrapperScript, ...rest] : [inner ?? job.test, ...rest];
  const latencyEnv: Record<string, string> = opts.latency
    ? { AUDITBENCH_LATENCY_INNER: inner ?? job.test }
    : {};
  const exit = await sysbench(args, {
    env: { ...sysbenchEnv(conn), ...latencyEnv },
    signal: opts.signal,
    timeoutMs: durationS * 1000 + RUN_GRACE_MS,
    onThreadsStarted: opts.onThreadsStarted,
    onReportLine: opts.onReportLine,
    cpus: opts.cpus,
  });
  const run = judgeSysbenchRun(exit, { maxIgnoredErrorPct: job.maxIgnoredErrorPct });
  if (opts.latency && run.result) run.result.latency = parseLatencyLines(exit.stdout);
  if (run.ok || !job.script || run.result) return run;
  return { ...run, reason: `traffic.script ${job.script}: ${run.reason} (${STANDARD_FORM})` };
}

/**
 * A run of exactly `events` transactions from `seed` (the counted channel's arm); resolves with sysbench's output and
 * rejects with its diagnostics when it fails.
 */
export async function runSysbenchEvents(
  conn: ConnectionOptions,
  job: SysbenchJob,
  run: { events: number; seed: number; timeS?: number },
  opts: SysbenchOptions = {},
): Promise<{ stdout: string; transactions: number }> {
  const args = eventsRunArgs(conn, job, run);
  const { stdout, stderr, failure } = await sysbench(args, { env: sysbenchEnv(conn), signal: opts.signal });
  const transactions = Number(/transactions:\s+(\d+)/.exec(stdout)?.[1] ?? Number.NaN);
  if (failure || !Number.isFinite(transactions)) {
    const why = failure ?? 'printed no transaction count';
    throw new Error(
      withDiagnostics(`sysbench ${run.events} events (seed ${run.seed}) ${why}`, stdout, stderr),
    );
  }
  return { stdout, transactions };
}

async function sysbenchStep(
  step: string,
  args: string[],
  conn: ConnectionOptions,
  opts: SysbenchOptions,
): Promise<void> {
  const { stdout, stderr, failure } = await sysbench(args, { env: sysbenchEnv(conn), signal: opts.signal });
  if (failure) {
    const where = conn.socketPath ?? `${conn.host}:${conn.port}`;
    throw new Error(withDiagnostics(`sysbench ${step} on ${where} failed: it ${failure}`, stdout, stderr));
  }
}

interface ProcessOptions {
  env: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  onThreadsStarted?: () => void;
  onReportLine?: (atS: number, line: string) => void;
  cpus?: string;
}

async function sysbench(args: string[], opts: ProcessOptions): Promise<SysbenchExit> {
  opts.signal?.throwIfAborted();
  const [file, fileArgs] = opts.cpus
    ? ['taskset', ['-c', opts.cpus, 'sysbench', ...args]]
    : ['sysbench', args];
  const subprocess = execa(file, fileArgs, {
    reject: false,
    stdin: 'ignore',
    env: opts.env,
    cancelSignal: opts.signal,
    forceKillAfterDelay: FORCE_KILL_AFTER_MS,
    timeout: opts.timeoutMs,
  });
  const { onThreadsStarted, onReportLine } = opts;
  if (onThreadsStarted) watchForStart(subprocess.stdout, onThreadsStarted);
  if (onReportLine) watchReportLines(subprocess.stdout, onReportLine);
  const result = await subprocess;
  if (result.code === 'ENOENT') {
    throw new Error('sysbench not found on PATH: install it (apt-get install sysbench)', { cause: result });
  }
  if (result.isCanceled) {
    throw new Error(`sysbench ${args.at(-1)} was cancelled`, { cause: opts.signal?.reason });
  }
  return { stdout: result.stdout, stderr: result.stderr, failure: describeFailure(result, opts.timeoutMs) };
}

function watchForStart(stdout: NodeJS.ReadableStream | null, onStart: () => void): void {
  let seen = '';
  const listener = (chunk: Buffer | string) => {
    seen = (seen + chunk.toString()).slice(-200);
    if (seen.includes('Threads started!')) {
      stdout?.off('data', listener);
      onStart();
    }
  };
  stdout?.on('data', listener);
}

const REPORT_LINE = /^\[ (\d+(?:\.\d+)?)s \]/;

/** Calls `onLine` with the second of each complete per-second line, and the line, as it arrives. */
export function watchReportLines(
  stdout: NodeJS.ReadableStream | null,
  onLine: (atS: number, line: string) => void,
): void {
  let pending = '';
  stdout?.on('data', (chunk: Buffer | string) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = REPORT_LINE.exec(line);
      if (match) onLine(Number(match[1]), line);
    }
  });
}

interface ProcessEnd {
  failed: boolean;
  timedOut: boolean;
  signal?: string;
  exitCode?: number;
  shortMessage?: string;
}

function describeFailure(end: ProcessEnd, timeoutMs: number | undefined): string | undefined {
  if (!end.failed) return undefined;
  if (end.timedOut) return `did not finish within ${(timeoutMs ?? 0) / 1000} s and was killed`;
  if (end.signal) return `was killed by ${end.signal}`;
  if (end.exitCode !== undefined) return `exited with code ${end.exitCode}`;
  return `could not be started: ${end.shortMessage ?? 'unknown error'}`;
}

/** How the measurement starts sysbench: the real binary by default; tests inject a scripted one. */
export interface SysbenchRunner {
  prepare(conn: ConnectionOptions, job: SysbenchJob): Promise<void>;
  run(conn: ConnectionOptions, job: SysbenchJob, opts: RunOptions): Promise<SysbenchRun>;
}

export const realSysbench: SysbenchRunner = { prepare: prepareSysbench, run: runSysbench };
