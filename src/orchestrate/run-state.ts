import type { Progress } from '../bench/measure-overhead.ts';
import { leftOutLine, movedLine } from '../config/outside-options.ts';
import { policyOn, type RunPolicy } from '../config/policy.ts';
import { unavailableReason } from '../plugins/availability.ts';
import { type LifecycleContext, lifecycleContext } from '../plugins/lifecycle/index.ts';
import type { MachineRates } from '../results/counted-record.ts';
import type { Calibration, Measurement } from '../results/schema.ts';
import { type AccountSession, accountSession } from '../servers/account-session.ts';
import type { ConcurrencyPoint } from '../workload/threads.ts';
import type { PendingCount } from './counted-cost.ts';
import type { OneServer, RunTraffic } from './one-server.ts';
import type { RunIdentity } from './run-identity.ts';

/**
 * What the runs on one server share: the shared A/A, the seconds earlier measurements left unused (time-bank.ts), the
 * machine's rates by their key (counted-cost.ts), and what each run leaves for its count after the runs (or why it
 * has none), by run id.
 */
export interface RunsShared {
  calibration: Calibration | null;
  bankedS: number;
  rates: Map<string, MachineRates>;
  pending: Map<string, PendingCount | { skip: string }>;
}

/** A run's state on the server, made by `openRun` and dropped by `closeRun`: what one test leaves for the next. */
export interface RunState {
  traffic: RunTraffic;
  sessions: AccountSession[];
  lifecycle: LifecycleContext;
  /** Why every test of the run is skipped (its library is not on this server), or null. */
  skipReason: string | null;
  /** A run with a script or added load gets an A/A of its own traffic; others share the suite's. */
  ownCalibration: Calibration | null;
  /** Each closed-loop point's measurement, by point label: the open loop's rate and the count read it. */
  measuredAt: Map<string, Measurement>;
  /** A point at other threads or cores than the shared A/A's gets an A/A of its own, by point label. */
  calibratedAt: Map<string, Calibration>;
}

/** What every kind of test takes: the server and its seams, what the runs share, the run's identity and its state. */
export interface RunContext {
  on: OneServer;
  shared: RunsShared;
  id: RunIdentity;
  state: RunState;
  policy: RunPolicy;
  progress: Progress;
}

/** The run's policy on this workload (quick passes an inconclusive verdict). */
export const runPolicy = (on: OneServer, id: RunIdentity): RunPolicy =>
  policyOn(on.workload.name, id.run.policy);

export async function openRun(on: OneServer, id: RunIdentity, progress: Progress): Promise<RunState> {
  const { run } = id;
  // A run skipped here (its library is not on this server) leaves the server as it is: the restart that clears the
  // previous plugin goes to the next run that installs one.
  const skipReason = await unavailableReason(on.started(), run.profile);
  if (!skipReason) await on.nextRun();
  const traffic = await on.traffic(run, on.config.configPath);
  const checks = accountSession(traffic.connections.checks);
  const application = accountSession(traffic.connections.application);
  const sessions = [checks, application];
  try {
    const lifecycle = lifecycleContext(on.started(), run.profile, {
      checks,
      application,
      ...(run.userFilter ? { audited: run.userFilter.audited, refusal: run.userFilter.refusal } : {}),
    });
    progress(skipReason ? `skipped: ${skipReason}` : `run ${run.id}, limit ${run.maxOverheadPct}%`);
    // What the run's option file would have aimed at production, and where this run keeps it instead.
    for (const line of run.outsideOptions.moved.map(movedLine)) progress(line);
    for (const line of run.outsideOptions.leftOut.map(leftOutLine)) progress(line);
    return {
      traffic,
      sessions,
      lifecycle,
      skipReason,
      ownCalibration: null,
      measuredAt: new Map(),
      calibratedAt: new Map(),
    };
  } catch (error) {
    await closeRun({ sessions });
    throw error;
  }
}

export async function closeRun(state: Pick<RunState, 'sessions'>): Promise<void> {
  for (const session of state.sessions.splice(0)) await session.close();
}

/** A previous point may have pinned the server: `all` gives it every CPU back. */
export async function unpin(on: OneServer, point: ConcurrencyPoint): Promise<void> {
  const server = on.started();
  if (point.cores === 'all' && server.pinCpus && on.seams.cpus > 1)
    await server.pinCpus(`0-${on.seams.cpus - 1}`);
}
