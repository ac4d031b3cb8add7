import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import { describeMachine } from '../results/machine.ts';
import type { TrafficRecord } from '../results/schema.ts';
import type { ResultKey } from '../results/task-meta.ts';
import type { ServerInfo } from '../servers/started-server.ts';
import { configHash } from './config-hash.ts';
import type { ResolvedRun } from './runs.ts';

/** result.traffic: the run's measured traffic as resolved. */
export const trafficRecord = (traffic: MeasuredTraffic): TrafficRecord => ({
  accounts: traffic.accounts,
  added: traffic.added,
  script: traffic.script,
  preparedStatements: traffic.preparedStatements,
});

/** What a suite adds to the run to place its records: the workload's name as reported, and the limit applied. */
export interface ResultKeyOptions {
  workload: string;
  limitPct: number;
  /**
   * A point measured under an id of its own (a sweep's `id@t4-all`, an open-loop point): its id, title and hash.
   * Absent: the run's own.
   */
  point?: { runId: string; title: string; configHash: string };
}

/**
 * The one key every suite attaches to a run's records: the reporter groups by the run's id (or its point's), and
 * the profile is named by its registry id, never looked up by its name or title.
 */
export function resultKey(run: ResolvedRun, server: ServerInfo, options: ResultKeyOptions): ResultKey {
  return {
    runId: options.point?.runId ?? run.id,
    profileId: run.profileId,
    plugin: run.profile.name,
    title: options.point?.title ?? run.title,
    server,
    workload: options.workload,
    limitPct: options.limitPct,
    settings: { global: run.settings, startup: run.startupOptions, optionFile: run.optionFile?.path ?? null },
    configHash:
      options.point?.configHash ??
      configHash(run.profile, {
        id: run.id,
        optionFileSha256: run.optionFile?.sha256 ?? null,
        traffic: run.traffic,
      }),
    machine: describeMachine(),
    traffic: trafficRecord(run.traffic),
  };
}
