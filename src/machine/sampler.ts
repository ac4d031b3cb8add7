// Samples /proc while a block is measured: who else used the CPUs, steal time, the load, and auditbench's own use.
import { readdirSync, readFileSync } from 'node:fs';
import { type BlockInterference, summariseBlock } from './block-interference.ts';
import { type Clock, realClock } from './clock.ts';
import {
  type Classifier,
  type IntervalUse,
  intervalUse,
  MEASURED_COMMS,
  type ProcSnapshot,
} from './interference.ts';
import { type ProcessTimes, parseLoadAvg, parseProcessStat, parseProcStat } from './proc.ts';

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/**
 * Reads /proc/stat, /proc/loadavg and every /proc/<pid>/stat; a process that exits meanwhile is left out.
 * Synchronous on purpose: /proc never waits on a disk, and one snapshot of ~130 processes took 1.8 ms of CPU this
 * way against 10.5 ms through promises, which would have been 1% of a core at one sample a second.
 */
export function readSnapshot(clock: Clock = realClock): ProcSnapshot {
  const processes: ProcessTimes[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const process = parseProcessStatSafe(readOrEmpty(`/proc/${name}/stat`));
    if (process) processes.push(process);
  }
  return {
    atMs: clock.nowMs(),
    cpu: parseProcStat(readFileSync('/proc/stat', 'utf8')),
    load: parseLoadAvg(readFileSync('/proc/loadavg', 'utf8')),
    processes,
  };
}

// A read cut short by the process exiting mid-read is as good as gone.
function parseProcessStatSafe(text: string): ProcessTimes | null {
  try {
    return parseProcessStat(text);
  } catch {
    return null;
  }
}

/**
 * auditbench's topmost process: the farthest unbroken chain of node/npm/tsx ancestors of this process (Vitest's
 * main process above its worker). A shell or flock above it is not auditbench and does nothing while it runs.
 */
export function auditbenchRoot(chain: readonly { pid: number; comm: string }[]): number {
  let root = chain[0]?.pid ?? 0;
  for (const link of chain.slice(1)) {
    if (!/^(node|npm|npx|tsx|vitest)/.test(link.comm)) break;
    root = link.pid;
  }
  return root;
}

function ancestry(pid: number): { pid: number; comm: string }[] {
  const chain: { pid: number; comm: string }[] = [];
  for (let current = pid; current > 1 && chain.length < 64; ) {
    const process = parseProcessStatSafe(readOrEmpty(`/proc/${current}/stat`));
    if (!process) break;
    chain.push({ pid: process.pid, comm: process.comm });
    current = process.ppid;
  }
  return chain;
}

// Background loads auditbench starts on purpose (the coverage script's) must count as other, not as auditbench.
const registeredOtherRoots = new Set<number>();

/** Counts the process tree of `pid` as another process's load until the returned function is called. */
export function countAsOther(pid: number): () => void {
  registeredOtherRoots.add(pid);
  return () => registeredOtherRoots.delete(pid);
}

export interface SamplerOptions {
  intervalMs?: number;
  /** Trees measured although outside auditbench's (a container's server). */
  measuredRoots?: number[];
  /** Process names measured wherever they run (docker-proxy for a container's port). */
  measuredComms?: string[];
  /** Trees auditbench started that must count as other (a deliberate background load). */
  otherRoots?: number[];
  /** The clock a snapshot's time is read on, which the CPU shares are divided by: the real one by default. */
  clock?: Clock;
}

export interface RunningSampler {
  /** Stops sampling and returns the block's figures; `retries` is recorded with them. */
  stop(retries?: number): Promise<BlockInterference>;
}

/** Starts sampling every `intervalMs` (1 s) until stop(); sampling errors end sampling, never the measurement. */
export async function startSampler(options: SamplerOptions = {}): Promise<RunningSampler> {
  const classifier: Classifier = {
    selfRoot: auditbenchRoot(ancestry(process.pid)),
    measuredComms: MEASURED_COMMS,
    measuredRoots: options.measuredRoots ?? [],
    measuredAnywhere: options.measuredComms ?? [],
    // Read at each sample: a load started after the sampler (mid-block) must count as other too.
    otherRoots: {
      includes: (pid) => registeredOtherRoots.has(pid) || (options.otherRoots ?? []).includes(pid),
    },
  };
  const intervals: IntervalUse[] = [];
  const clock = options.clock ?? realClock;
  let previous = readSnapshot(clock);
  let sampling: Promise<void> = Promise.resolve();
  const sample = async () => {
    const next = readSnapshot(clock);
    intervals.push(intervalUse(previous, next, classifier));
    previous = next;
  };
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch(() => clearInterval(timer));
  }, options.intervalMs ?? 1000);
  // A measurement that throws before stop() must not be kept alive by its sampler.
  timer.unref();
  return {
    async stop(retries = 0) {
      clearInterval(timer);
      await sampling;
      await sample().catch(() => {});
      return summariseBlock(intervals, retries);
    },
  };
}
