import { prepareMeasurement } from '../bench/measure-overhead.ts';
import { planFor } from '../bench/measure-plan.ts';
import { measureRun } from '../bench/pipeline.ts';
import { pluginSubject } from '../bench/subject.ts';
import { DEFAULT_ACCOUNTS } from '../config/measured-traffic.ts';
import { type LifecycleStep, lifecycleContext, lifecycleSteps } from '../plugins/lifecycle/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { LifecycleCheck } from '../results/lifecycle-check.ts';
import { type AccountSession, accountSession } from '../servers/account-session.ts';
import { SqlError } from '../servers/sql-session.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { type TrafficConnections, trafficConnections } from '../servers/traffic-accounts.ts';
import { runnerAs } from '../workload/run-as.ts';
import type { Workload } from '../workload/workload.ts';
import { type CellOutcome, classifyInstallFailure, type MatrixCell } from './cell.ts';

export interface CellOptions {
  image: string | null;
  workload: Workload;
  limitPct: number;
  progress: (message: string) => void;
  /** false: the lifecycle only, no overhead measured (the sample's other works cells); default true. */
  measure?: boolean;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const sqlErrno = (error: unknown): number | null => {
  const cause = error instanceof Error ? error.cause : undefined;
  if (error instanceof SqlError) return error.errno;
  return cause instanceof SqlError ? cause.errno : null;
};

/** Runs one lifecycle step; a failure is turned into the cell's outcome instead of being thrown. */
async function tryStep(step: LifecycleStep, run: () => Promise<LifecycleCheck>) {
  try {
    return { check: await run() };
  } catch (error) {
    if (step.id === 'install') return { failed: classifyInstallFailure(sqlErrno(error), messageOf(error)) };
    // A server that will not come back with the plugin loaded is the seed's endless-restart case.
    if (/did not accept connections|exited with code|was killed by|started, then/.test(messageOf(error))) {
      return {
        failed: {
          outcome: 'crash-loop' as CellOutcome,
          reason: messageOf(error).split('\n').slice(0, 4).join(' | '),
        },
      };
    }
    return {
      failed: { outcome: 'error' as CellOutcome, reason: `${step.id}: ${messageOf(error).split('\n')[0]}` },
    };
  }
}

/**
 * One plugin on one server: install (a refusal is "incompatible"), the lifecycle up to the restart (a server that
 * does not come back is a "crash-loop"), then the overhead under the workload.
 */
export async function runCell(
  server: StartedServer,
  profile: PluginProfile,
  options: CellOptions,
): Promise<MatrixCell> {
  const cell: MatrixCell = {
    plugin: profile.title,
    server: { ...server.info, image: options.image },
    outcome: 'works',
    reason: '',
    lifecycleOk: null,
    overheadPct: null,
    overheadCi95: null,
    verdict: null,
  };
  if (!profile.flavors.includes(server.info.flavor)) {
    return {
      ...cell,
      outcome: 'skipped',
      reason: `${profile.title} is for ${profile.flavors.join('/')} servers`,
    };
  }
  // The checks and sysbench log in as the harness's two accounts, as in a run; root only installs and restarts. A
  // server that refuses them (a password policy, read-only mode, an account left from before) is this cell's error.
  let connections: TrafficConnections;
  try {
    connections = await trafficConnections(server, DEFAULT_ACCOUNTS);
  } catch (error) {
    return {
      ...cell,
      outcome: 'error',
      reason: `creating the traffic accounts: ${messageOf(error).split('\n')[0]}`,
    };
  }
  const sessions = [accountSession(connections.checks), accountSession(connections.application)] as const;
  try {
    return await measureCell(server, profile, options, {
      cell,
      application: connections.application,
      sessions,
    });
  } finally {
    for (const session of sessions) await session.close();
  }
}

/** The cell as recorded so far, the application account and the checks' and application's sessions. */
interface CellAccounts {
  cell: MatrixCell;
  application: ConnectionOptions;
  sessions: readonly [AccountSession, AccountSession];
}

async function measureCell(
  server: StartedServer,
  profile: PluginProfile,
  options: CellOptions,
  { cell, application, sessions: [checks, app] }: CellAccounts,
): Promise<MatrixCell> {
  const context = lifecycleContext(server, profile, { checks, application: app });
  const results: LifecycleCheck[] = [];
  for (const step of lifecycleSteps.beforeMeasure) {
    const result = await tryStep(step, () => step.run(context));
    if ('failed' in result && result.failed) return { ...cell, ...result.failed, lifecycleOk: false };
    if ('check' in result && result.check) results.push(result.check);
  }
  cell.lifecycleOk = results.every((c) => c.ok);
  if (options.measure === false)
    return { ...cell, reason: 'its lifecycle only: the sample measures one cell' };
  // One block of half the workload's pairs (planFor's cell): whether a pairing works and roughly what it costs;
  // each configured run is the gate that measures until its verdict is decisive. A plugin switched by restarts gets
  // the 4 pairs of separate runs its arms allow.
  try {
    const runner = runnerAs(application);
    const arms = pluginSubject(profile).arms;
    const planned = planFor({ workload: options.workload, cell: true, oneBlock: true, arms });
    await prepareMeasurement(server, planned, options.progress, runner);
    const m = await measureRun(server, profile, planned, {
      limitPct: options.limitPct,
      calibration: null,
      progress: options.progress,
      runner,
    });
    return {
      ...cell,
      overheadPct: m.overheadPct,
      overheadCi95: m.overheadCi95,
      verdict: m.verdict,
      reason: m.reason,
    };
  } catch (error) {
    return { ...cell, outcome: 'error', reason: `measurement: ${messageOf(error).split('\n')[0]}` };
  }
}
