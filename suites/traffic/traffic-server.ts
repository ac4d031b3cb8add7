import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { planFor } from '../../src/bench/measure-plan.ts';
import { measureRun } from '../../src/bench/pipeline.ts';
import { pluginSubject } from '../../src/bench/subject.ts';
import type { Environment } from '../../src/config/env.ts';
import type { MeasuredTraffic } from '../../src/config/measured-traffic.ts';
import { type LifecycleContext, lifecycleContext } from '../../src/plugins/lifecycle/index.ts';
import type { Measurement } from '../../src/results/schema.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';
import { resultKey } from '../../src/runs/result-key.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { type AccountSession, accountSession } from '../../src/servers/account-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import {
  dropTrafficAccounts,
  type TrafficConnections,
  trafficConnections,
} from '../../src/servers/traffic-accounts.ts';
import { measuredRunTraffic } from '../../src/traffic/run-traffic.ts';
import { runnerAs } from '../../src/workload/run-as.ts';
import type { Workload } from '../../src/workload/workload.ts';

/** The one local server of suites/traffic.suite.ts: its tables, the traffic's accounts, a run's key and measurement. */
export interface TrafficServer {
  start(): Promise<void>;
  key(run: ResolvedRun): ResultKey;
  lifecycle(run: ResolvedRun): LifecycleContext;
  /** One run measured under its traffic (one block, no calibration), its record on the test's task.meta. */
  measure(run: ResolvedRun, context: { task: { meta: object } }): Promise<Measurement>;
  stop(): Promise<void>;
}

export function trafficServer(
  config: Environment,
  options: { accounts: MeasuredTraffic['accounts']; workload: Workload; configPath: string },
): TrafficServer {
  const { workload, configPath } = options;
  let server: StartedServer | undefined;
  let connections: TrafficConnections | undefined;
  const sessions: AccountSession[] = [];
  const started = () => {
    if (!server || !connections) throw new Error('The server did not start; see the first error');
    return { server, connections };
  };
  const log = (what: string) => (message: string) => console.log(`[traffic · ${what}] ${message}`);
  const key = (r: ResolvedRun): ResultKey =>
    resultKey(r, started().server.info, {
      workload: `${workload.name}, 4 pairs`,
      limitPct: r.maxOverheadPct,
    });
  return {
    key,
    async start() {
      server = await startServer(config);
      connections = await trafficConnections(server, options.accounts);
      sessions.push(accountSession(connections.checks), accountSession(connections.application));
      await prepareMeasurement(
        server,
        planFor({ workload }),
        log('tables'),
        runnerAs(connections.application),
      );
    },
    lifecycle(r) {
      const [checks, application] = sessions as [AccountSession, AccountSession];
      return lifecycleContext(started().server, r.profile, { checks, application });
    },
    async measure(r, context) {
      const { server, connections } = started();
      const progress = log(r.id);
      const measured = measuredRunTraffic(server, r, { application: connections.application, configPath });
      const planned = planFor({ workload, traffic: measured.traffic, arms: pluginSubject(r.profile).arms });
      if (planned.job.script) await prepareMeasurement(server, planned, progress, measured.runner);
      const measurement = await measureRun(server, r.profile, planned, {
        limitPct: r.maxOverheadPct,
        calibration: null,
        progress,
        interference: r.policy.interference,
        runner: measured.runner,
        traffic: measured.seen,
      });
      progress(
        `events per transaction ${JSON.stringify(measurement.auditEvents)}, sent ${JSON.stringify(measurement.addedSent)}`,
      );
      Object.assign(context.task.meta, { auditbench: { ...key(r), kind: 'measurement', measurement } });
      return measurement;
    },
    async stop() {
      for (const session of sessions.splice(0)) await session.close();
      if (server) await dropTrafficAccounts(server);
      await server?.stop();
    },
  };
}
