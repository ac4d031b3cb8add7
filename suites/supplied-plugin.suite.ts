import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { planFor } from '../src/bench/measure-plan.ts';
import { measureRun } from '../src/bench/pipeline.ts';
import { pluginSubject } from '../src/bench/subject.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { DEFAULT_ACCOUNTS } from '../src/config/measured-traffic.ts';
import { unavailableReason } from '../src/plugins/availability.ts';
import {
  type LifecycleContext,
  type LifecycleStep,
  lifecycleContext,
  lifecycleSteps,
} from '../src/plugins/lifecycle/index.ts';
import { type AccountSession, accountSession } from '../src/servers/account-session.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import {
  dropTrafficAccounts,
  type TrafficConnections,
  trafficConnections,
} from '../src/servers/traffic-accounts.ts';
import { runnerAs } from '../src/workload/run-as.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { benchAudit, benchAuditFile } from '../test/support/bench-audit-profile.ts';
import { type SuppliedFolder, supplyTestPlugin } from '../test/support/test-plugin.ts';

/**
 * The path a DBA's own library takes (McAfee AUDIT's, say), on a library of the project's own: BENCH_AUDIT
 * (test/plugin/bench_audit.c) is compiled now, put in a folder with a *.cnf beside it, and handed to a local server as
 * AUDITBENCH_PLUGIN_DIR; it is installed, its lifecycle checked, measured with one short block, and uninstalled.
 */
const config = loadEnvironment();
// A matrix cell's block after the shortest warm-up: that the path measures, not a figure.
const preset = getWorkload(config.workload);
const shortWarmUp = { ...preset, warmupS: preset.minWarmupS };

describe('a library supplied in AUDITBENCH_PLUGIN_DIR: BENCH_AUDIT, compiled here', () => {
  let skipReason: string | null = null;
  let folder: SuppliedFolder | undefined;
  let server: StartedServer | undefined;
  let connections: TrafficConnections | undefined;
  let lifecycle: LifecycleContext | undefined;
  const sessions: AccountSession[] = [];
  const progress = (message: string) => console.log(`[supplied plugin] ${message}`);
  const started = (context: TestContext): StartedServer => {
    if (skipReason) context.skip(skipReason);
    if (!server) throw new Error('The server did not start; see the error of the first test');
    return server;
  };

  beforeAll(async () => {
    if (config.target !== 'local') {
      skipReason = `AUDITBENCH_PLUGIN_DIR works with the local target only; this run's is ${config.target}`;
      return;
    }
    const supplied = await supplyTestPlugin();
    if ('problem' in supplied) {
      skipReason = supplied.problem;
      return;
    }
    folder = supplied;
    server = await startServer({ ...config, pluginDir: supplied.dir });
    skipReason = await unavailableReason(server, benchAudit);
    if (skipReason) return;
    connections = await trafficConnections(server, DEFAULT_ACCOUNTS);
    sessions.push(accountSession(connections.checks), accountSession(connections.application));
    const [checks, application] = sessions as [AccountSession, AccountSession];
    lifecycle = lifecycleContext(server, benchAudit, { checks, application });
    progress(
      `server ${server.info.version} on 127.0.0.1:${server.connection.port}, plugins from ${supplied.dir}`,
    );
  });
  afterAll(async () => {
    for (const session of sessions.splice(0)) await session.close();
    if (server) await dropTrafficAccounts(server).catch(() => {});
    await server?.stop();
    await folder?.remove();
  });

  async function check(step: LifecycleStep, context: TestContext): Promise<void> {
    started(context);
    if (!lifecycle) throw new Error('The lifecycle context was not set up; see the first test');
    const result = await step.run(lifecycle);
    expect(result.observed, `BENCH_AUDIT: ${result.check}`).toEqual(result.expected);
  }

  for (const step of lifecycleSteps.beforeMeasure) test(step.title, (context) => check(step, context));

  test('the *.cnf beside the library reached the server: bench_audit_file is its value', async (context) => {
    const { rows } = await started(context).query('SELECT @@GLOBAL.bench_audit_file AS file');
    expect(rows[0]?.file).toBe(benchAuditFile);
  });

  test('one short block measures it and finds its log growing', async (context) => {
    const on = started(context);
    if (!connections) throw new Error('The traffic accounts were not created; see the first test');
    const runner = runnerAs(connections.application);
    const arms = pluginSubject(benchAudit).arms;
    const planned = planFor({ workload: shortWarmUp, cell: true, oneBlock: true, arms });
    await prepareMeasurement(on, planned, progress, runner);
    const measurement = await measureRun(on, benchAudit, planned, {
      limitPct: benchAudit.maxOverheadPct,
      calibration: null,
      progress,
      runner,
    });
    progress(
      `${measurement.overheadPct.toFixed(1)}% (${measurement.verdict}), ${(measurement.logBytesPerTxn ?? 0).toFixed(0)} log bytes a transaction`,
    );
    expect(measurement.logBytesPerTxn ?? 0, 'the plugin wrote nothing while it was on').toBeGreaterThan(0);
  });

  for (const step of lifecycleSteps.afterMeasure) test(step.title, (context) => check(step, context));
});
