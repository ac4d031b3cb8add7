import { prepareMeasurement } from '../bench/measure-overhead.ts';
import { planFor } from '../bench/measure-plan.ts';
import { measureRun } from '../bench/pipeline.ts';
import { pluginSubject } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import { type LifecycleContext, lifecycleContext } from '../plugins/lifecycle/index.ts';
import type { Measurement } from '../results/schema.ts';
import type { ResultKey, ResultRecord } from '../results/task-meta.ts';
import { resultKey } from '../runs/result-key.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { type AccountSession, accountSession } from '../servers/account-session.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { Workload } from '../workload/workload.ts';
import { oneServer } from './one-server.ts';
import { liveSeams, type Seams } from './seams.ts';

// Runs measured under their traffic on one server they share, one block each and no A/A: what a configuration logged
// of the traffic and what the traffic sent, not a verdict's precision (suites/traffic.suite.ts). The tables are loaded
// once as the traffic's application account; each run's lifecycle checks use sessions of the traffic's accounts.

export interface UnderTraffic {
  start(): Promise<void>;
  /** The name a run's records carry: the workload with its pairs, as the run was measured. */
  key(run: ResolvedRun): ResultKey;
  lifecycle(run: ResolvedRun): Promise<LifecycleContext>;
  /** One run under its traffic (its script, its added load): the measurement and the record for the test. */
  measure(run: ResolvedRun): Promise<{ measurement: Measurement; record: ResultRecord }>;
  stop(): Promise<void>;
}

export function underTraffic(
  config: Environment,
  options: { accounts: MeasuredTraffic['accounts']; workload: Workload; configPath: string },
  seams: Partial<Seams> = {},
): UnderTraffic {
  const { workload, configPath } = options;
  const heading = (what: string, server: StartedServer | undefined) =>
    `traffic · ${what}${server ? ` · ${server.info.flavor} ${server.info.version}` : ''}`;
  const on = oneServer(config, { ...liveSeams, ...seams }, heading);
  const sessions: AccountSession[] = [];
  // One pair of sessions per run, for all of its checks.
  const contexts = new Map<string, LifecycleContext>();
  const key = (run: ResolvedRun): ResultKey =>
    resultKey(run, on.started().info, {
      workload: `${workload.name}, ${workload.maxPairs} pairs`,
      limitPct: run.maxOverheadPct,
    });
  return {
    key,
    async start() {
      await on.start();
      await on.loadTables(options.accounts, on.log('tables'));
    },
    async lifecycle(run) {
      const known = contexts.get(run.id);
      if (known) return known;
      const { connections } = await on.traffic(run, configPath);
      const checks = accountSession(connections.checks);
      const application = accountSession(connections.application);
      sessions.push(checks, application);
      const context = lifecycleContext(on.started(), run.profile, { checks, application });
      contexts.set(run.id, context);
      return context;
    },
    async measure(run) {
      const progress = on.log(run.id);
      const measured = (await on.traffic(run, configPath)).measured();
      const planned = planFor({ workload, traffic: measured.traffic, arms: pluginSubject(run.profile).arms });
      if (planned.job.script) await prepareMeasurement(on.started(), planned, progress, measured.runner);
      const measurement = await measureRun(on.started(), run.profile, planned, {
        limitPct: run.maxOverheadPct,
        calibration: null,
        progress,
        interference: run.policy.interference,
        runner: measured.runner,
        traffic: measured.seen,
      });
      progress(
        `events per transaction ${JSON.stringify(measurement.auditEvents)}, sent ${JSON.stringify(measurement.addedSent)}`,
      );
      return { measurement, record: { ...key(run), kind: 'measurement', measurement } };
    },
    async stop() {
      for (const session of sessions.splice(0)) await session.close();
      contexts.clear();
      await on.stop();
    },
  };
}
