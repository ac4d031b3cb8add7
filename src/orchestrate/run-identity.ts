import type { ResultKey } from '../results/task-meta.ts';
import { configHash } from '../runs/config-hash.ts';
import { resultKey } from '../runs/result-key.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { ServerInfo } from '../servers/started-server.ts';
import {
  type ConcurrencyPoint,
  concurrencyPoints,
  isDefaultPoint,
  OPEN_LOOP_PCT,
  openLoopLabel,
  pointLabel,
} from '../workload/threads.ts';
import type { Workload } from '../workload/workload.ts';

/** Where in a run a test measures: a concurrency point, in a closed loop or, with a rate, an open one. */
export interface At {
  point: ConcurrencyPoint;
  ratePerS?: number;
}

/** What names a run's records at one place: its id, its title, its configuration's hash. */
export interface PointKey {
  runId: string;
  title: string;
  configHash: string;
}

/**
 * A run's identity, built once: its points, and the one key function of its records. Each point of the run's
 * concurrency is a measurement of its own; a point other than the workload's own threads and cores, or an open loop,
 * gets its own run id and hash, so the history compares it only with the same point.
 */
export interface RunIdentity {
  run: ResolvedRun;
  workload: Workload;
  points: ConcurrencyPoint[];
  /** Lifecycle checks, the calibration and the count go with the workload's own point when measured, else the first. */
  ownPoint: ConcurrencyPoint;
  /** The run's own place: the workload's threads and cores, in a closed loop. */
  isOwn(at: At): boolean;
  key(at?: At): PointKey;
  resultKey(server: ServerInfo, at?: At): ResultKey;
  /** Where a failure line says the run was measured. */
  where(server: ServerInfo, at: At): string;
}

export function runIdentity(
  run: ResolvedRun,
  workload: Workload,
  machine: { cpus: number; external: boolean },
): RunIdentity {
  const points = concurrencyPoints(run, workload, machine);
  const isDefault = (point: ConcurrencyPoint) => isDefaultPoint(point, workload, machine.external);
  const ownPoint = (points.find(isDefault) ?? points[0]) as ConcurrencyPoint;
  const isOwn = (at: At) => at.ratePerS === undefined && isDefault(at.point);
  const key = (at: At = { point: ownPoint }): PointKey => {
    const { point, ratePerS } = at;
    const hash = configHash(run.profile, {
      id: run.id,
      optionFileSha256: run.optionFile?.sha256 ?? null,
      traffic: run.traffic,
      ...(isOwn(at) ? {} : { concurrency: point }),
      ...(ratePerS !== undefined ? { openLoopPct: OPEN_LOOP_PCT } : {}),
    });
    if (isOwn(at)) return { runId: run.id, title: run.title, configHash: hash };
    const place = `${point.threads} threads, ${point.cores} cores`;
    return ratePerS !== undefined
      ? {
          runId: `${run.id}@${openLoopLabel(point)}`,
          title: `${run.title} · open loop at ${ratePerS} tx/s, ${place}`,
          configHash: hash,
        }
      : { runId: `${run.id}@${pointLabel(point)}`, title: `${run.title} · ${place}`, configHash: hash };
  };
  return {
    run,
    workload,
    points,
    ownPoint,
    isOwn,
    key,
    resultKey: (server, at) =>
      resultKey(run, server, { workload: workload.name, limitPct: run.maxOverheadPct, point: key(at) }),
    where(server, at) {
      const { point, ratePerS } = at;
      const place = isOwn(at)
        ? ''
        : ratePerS !== undefined
          ? ` in an open loop at ${ratePerS} tx/s (${point.threads} threads, ${point.cores} cores)`
          : ` at ${point.threads} threads (${point.cores} cores)`;
      return `${run.title}${place} on ${server.flavor} ${server.version}, ${workload.name} workload`;
    },
  };
}
