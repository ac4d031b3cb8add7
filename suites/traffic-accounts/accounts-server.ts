import { expect } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import type { MeasuredTraffic } from '../../src/config/measured-traffic.ts';
import { measureAsApplication } from '../../src/orchestrate/as-application.ts';
import {
  type LifecycleContext,
  lifecycleContext,
  lifecycleSteps,
} from '../../src/plugins/lifecycle/index.ts';
import type { LifecycleCheck } from '../../src/results/lifecycle-check.ts';
import type { Measurement } from '../../src/results/schema.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { type AccountSession, accountSession } from '../../src/servers/account-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import {
  dropTrafficAccounts,
  type TrafficConnections,
  trafficConnections,
} from '../../src/servers/traffic-accounts.ts';
import type { Workload } from '../../src/workload/workload.ts';
import { type SeenThread, sampleProcesslist } from './processlist.ts';

/** The one server of suites/traffic-accounts.suite.ts, with the traffic's accounts, and what its tests share. */
export interface AccountsServer {
  start(): Promise<void>;
  started(): { server: StartedServer; connections: TrafficConnections };
  /** A run's lifecycle context, its checks and application sessions as the accounts'. */
  context(run: ResolvedRun): LifecycleContext;
  stop(): Promise<void>;
}

export function accountsServer(
  config: Environment,
  accounts: MeasuredTraffic['accounts'],
  progress: (message: string) => void,
): AccountsServer {
  let server: StartedServer | undefined;
  let connections: TrafficConnections | undefined;
  const sessions: AccountSession[] = [];
  const started = () => {
    if (!server || !connections) throw new Error('The server did not start; see the hook error');
    return { server, connections };
  };
  return {
    started,
    async start() {
      server = await startServer(config);
      connections = await trafficConnections(server, accounts);
      progress(
        `started on 127.0.0.1:${server.connection.port}; accounts ${accounts.application}, ${accounts.checks}`,
      );
    },
    context(run) {
      const { server, connections } = started();
      const [checks, application] = [
        accountSession(connections.checks),
        accountSession(connections.application),
      ];
      sessions.push(checks, application);
      return lifecycleContext(server, run.profile, {
        checks,
        application,
        ...(run.userFilter ? { audited: run.userFilter.audited, refusal: run.userFilter.refusal } : {}),
      });
    },
    async stop() {
      for (const session of sessions) await session.close();
      if (server) await dropTrafficAccounts(server);
      await server?.stop();
    },
  };
}

export async function runChecks(
  ctx: LifecycleContext,
  steps = lifecycleSteps.beforeMeasure,
): Promise<LifecycleCheck[]> {
  const results: LifecycleCheck[] = [];
  for (const step of steps) results.push(await step.run(ctx));
  return results;
}

/** The next test installs the plugin again: it goes even when an assertion failed. */
export async function thenUninstall(ctx: LifecycleContext, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    const [uninstalled] = await runChecks(ctx, lifecycleSteps.afterMeasure);
    expect(uninstalled?.ok, JSON.stringify(uninstalled)).toBe(true);
  }
}

/**
 * The run measured as the application account (src/orchestrate/as-application.ts), with the server's processlist
 * sampled throughout the measurement: the measurement, and the threads seen.
 */
export async function measuredAsApplication(
  { server, connections }: { server: StartedServer; connections: TrafficConnections },
  run: ResolvedRun,
  workload: Workload,
  progress: (message: string) => void,
): Promise<{ measurement: Measurement; seen: SeenThread[] }> {
  // Judged against the run's own limit, as a bench judges it: the test asks for an estimate above zero, not an
  // interval clear of it, so the first decisive block ends it (until 2026-12-06 a 0% limit added blocks until the
  // interval cleared zero, about 14 s more).
  const { measurement, watched } = await measureAsApplication(server, run.profile, {
    plan: { workload },
    application: connections.application,
    limitPct: run.maxOverheadPct,
    interference: run.policy.interference,
    progress,
    watch: () => sampleProcesslist(server),
  });
  progress(
    `${measurement.overheadPct.toFixed(1)}% [${measurement.overheadCi95?.map((v) => v.toFixed(1)).join(', ')}], ${measurement.logBytesPerTxn?.toFixed(0)} B/txn`,
  );
  const seen = watched ?? [];
  progress(`threads seen during the measurement: ${JSON.stringify(seen)}`);
  return { measurement, seen };
}
