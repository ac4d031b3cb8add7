import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TrafficSeen } from '../bench/audit-events.ts';
import type { JobTraffic } from '../bench/measure-plan.ts';
import { realSysbench, type SysbenchRunner } from '../bench/subject.ts';
import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { ownScriptProblem } from '../workload/own-script.ts';
import { runnerAs } from '../workload/run-as.ts';
import { addedRates } from './added-load.ts';
import { type AddedTrafficRunner, withAddedTraffic } from './with-added-traffic.ts';

/** A DBA's script, resolved against the configuration file it was named in. */
export const scriptFile = (traffic: MeasuredTraffic, configPath: string): string | null =>
  traffic.script ? path.resolve(path.dirname(path.resolve(configPath)), traffic.script.path) : null;

/**
 * Refuses, before any server starts, a run whose traffic.script auditbench cannot measure (no event(), no prepare,
 * its own report hooks): one line naming the run, the script and what it lacks.
 */
export function checkOwnScripts(runs: ResolvedRun[], configPath: string): void {
  for (const run of runs) {
    const file = scriptFile(run.traffic, configPath);
    if (!file) continue;
    const problem = ownScriptProblem(readFileSync(file, 'utf8'), `run '${run.id}' traffic.script`, file);
    if (problem) throw new Error(problem);
  }
}

/** What of a run's traffic reaches sysbench's job (planFor): the DBA's script, resolved, and the prepared-statement mode. */
export const jobTraffic = (traffic: MeasuredTraffic, configPath: string): JobTraffic => ({
  script: scriptFile(traffic, configPath),
  preparedStatements: traffic.preparedStatements,
});

/** A script or an added load changes the noise: the shared A/A (OLTP, nothing added) does not describe it. */
export const needsOwnCalibration = (traffic: MeasuredTraffic): boolean =>
  traffic.script !== null || addedRates(traffic).length > 0 || !traffic.preparedStatements;

export interface MeasuredRunTraffic {
  /** The script and prepared-statement mode planFor puts in the job. */
  traffic: JobTraffic;
  runner: AddedTrafficRunner;
  /** For the gate: whom the traffic logged in as (an idle plugin fails) and what the added load sent. */
  seen: TrafficSeen & { sent: () => Record<string, number> };
}

/**
 * Everything a run's measurement needs of its traffic: what goes into its job, a runner that logs sysbench in as `application`
 * and carries the added load, and the accounts that traffic used.
 */
export function measuredRunTraffic(
  server: StartedServer,
  run: Pick<ResolvedRun, 'traffic'>,
  {
    application,
    configPath,
    inner = realSysbench,
  }: {
    /** The account sysbench logs in as. */
    application: ConnectionOptions;
    /** The configuration file, which a traffic script's path is relative to. */
    configPath: string;
    inner?: SysbenchRunner;
  },
): MeasuredRunTraffic {
  const runner = withAddedTraffic(runnerAs(application, inner), server, run.traffic, application);
  const accounts = [...new Set([application.user, ...runner.accounts])];
  return {
    traffic: jobTraffic(run.traffic, configPath),
    runner,
    seen: { accounts, added: run.traffic.added, sent: runner.sent },
  };
}
