import { type ConcurrencyPoint, type Cores, MAX_THREADS, threadList } from '../config/concurrency.ts';
import type { Workload } from './workload.ts';

export type { ConcurrencyPoint, Cores };

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
 * The points one run measures: its threads and cores (its own or the configuration's top level), else the workload's
 * defaults. An external target is never pinned, so it is always `all`.
 */
export function concurrencyPoints(
  run: { threads?: number[] | null; cores?: Cores | null },
  workload: Pick<Workload, 'threads' | 'pinCpus'>,
  machine: { cpus: number; external: boolean },
): ConcurrencyPoint[] {
  const threads = run.threads ?? defaultThreadPoints(workload.threads, machine.cpus);
  const chosen = run.cores ?? workloadCores(workload);
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

/** The open-loop point's rate as a share of the baseline's throughput: loaded, with room left to queue into. */
export const OPEN_LOOP_PCT = 70;

/**
 * The point an open-loop measurement follows, or null for none: a run's `openLoop`, else on for a sweep. It runs at
 * the run's most threads, so the client has threads to spare when arrivals bunch, on that point's cores.
 */
export function openLoopPoint(
  openLoop: boolean | null,
  points: readonly ConcurrencyPoint[],
): ConcurrencyPoint | null {
  if (!(openLoop ?? points.length > 1)) return null;
  return points.reduce<ConcurrencyPoint | null>(
    (most, p) => (most && most.threads >= p.threads ? most : p),
    null,
  );
}

/** Transactions per second the open loop sends: OPEN_LOOP_PCT of the closed loop's baseline, at least 1. */
export const openLoopRate = (baselineTps: number): number =>
  Math.max(1, Math.round((baselineTps * OPEN_LOOP_PCT) / 100));

/** How an open-loop point names itself in run ids: `t16-pinned-open`. */
export const openLoopLabel = (point: ConcurrencyPoint): string => `${pointLabel(point)}-open`;
