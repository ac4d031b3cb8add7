import { z } from 'zod';
import type { Workload } from './workload.ts';

/** Where the server runs: `pinned` to CPU 0 with sysbench on CPU 1 (2+ CPUs, local), or on `all` CPUs unpinned. */
export type Cores = 'pinned' | 'all';
export const coresNames = ['pinned', 'all'] as const;

/** One point of a run's concurrency: its own measurement, with its own interval. */
export interface ConcurrencyPoint {
  threads: number;
  cores: Cores;
}

export const MAX_THREADS = 1024;
/** A run's `threads`: one count, or a list of counts (a sweep), each measured on its own. */
export const threadsAdvice = `must be a whole number from 1 to ${MAX_THREADS} or a list of up to 8 of them, e.g. [1, 4, 16]`;
const threadCount = z
  .number({ error: threadsAdvice })
  .int({ error: threadsAdvice })
  .min(1, { error: threadsAdvice })
  .max(MAX_THREADS, { error: threadsAdvice });
export const threadsSchema = z.union([threadCount, z.array(threadCount).min(1).max(8)], {
  error: threadsAdvice,
});
export const coresSchema = z.enum(coresNames, {
  error: "must be 'pinned' (server on CPU 0, sysbench on CPU 1) or 'all'",
});

/** The thread counts as a list in the given order, each kept once. */
export const threadList = (threads: number | number[]): number[] => [
  ...new Set(Array.isArray(threads) ? threads : [threads]),
];

/** The workload's own cores: pinned where it pins (smoke, standard), else all. */
export const workloadCores = (workload: Pick<Workload, 'pinCpus'>): Cores =>
  workload.pinCpus ? 'pinned' : 'all';

/**
 * The points a run leaves to auditbench: on 2 CPUs or fewer one point, the workload's thread count (today's
 * measurement); on more CPUs that point and 4 threads per CPU (at most MAX_THREADS), where contention can show.
 */
export function defaultThreadPoints(workloadThreads: number, cpus: number): number[] {
  if (cpus <= 2) return [workloadThreads];
  return threadList([workloadThreads, Math.min(MAX_THREADS, 4 * cpus)]);
}

/**
 * The points one run measures: its own threads and cores, else the settings' (AUDITBENCH_THREADS, AUDITBENCH_CORES),
 * else the defaults. An external target is never pinned, so it is always `all`.
 */
export function concurrencyPoints(
  run: { threads?: number[] | null; cores?: Cores | null },
  settings: { threads: number[] | null; cores: Cores | null },
  workload: Pick<Workload, 'threads' | 'pinCpus'>,
  machine: { cpus: number; external: boolean },
): ConcurrencyPoint[] {
  const threads = run.threads ?? settings.threads ?? defaultThreadPoints(workload.threads, machine.cpus);
  const chosen = run.cores ?? settings.cores ?? workloadCores(workload);
  const cores: Cores = machine.external ? 'all' : chosen;
  return threads.map((count) => ({ threads: count, cores }));
}

/** Today's point: the workload's thread count on its own cores. Its results keep today's run id and hash. */
export const isDefaultPoint = (
  point: ConcurrencyPoint,
  workload: Pick<Workload, 'threads' | 'pinCpus'>,
  external: boolean,
): boolean =>
  point.threads === workload.threads && point.cores === (external ? 'all' : workloadCores(workload));

/** How a point names itself in run ids and history keys: `t4-all`. */
export const pointLabel = (point: ConcurrencyPoint): string => `t${point.threads}-${point.cores}`;

/** The workload as one point measures it: its thread count, and pinning only where the point is pinned. */
export const pointWorkload = <W extends Workload>(workload: W, point: ConcurrencyPoint): W => ({
  ...workload,
  threads: point.threads,
  pinCpus: point.cores === 'pinned',
});
