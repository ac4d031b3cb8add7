import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { measureOverhead, prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { summariseMeasurement } from '../../src/bench/summarise.ts';
import { loadConfig } from '../../src/config/env.ts';
import { type LifecycleContext, type LifecycleStep, lifecycleContext, lifecycleSteps } from '../../src/plugins/lifecycle/index.ts';
import type { PluginProfile } from '../../src/plugins/profile.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { getWorkload } from '../../src/workload/workloads.ts';

/**
 * The shared checks every plugin suite runs: its lifecycle on a fresh server, then the overhead gate, then
 * uninstall. A plugin's suite file is `pluginSuite(profile)`.
 */
export function pluginSuite(profile: PluginProfile): void {
  const config = loadConfig();
  const workload = getWorkload(config.workload);
  const limitPct = config.maxOverheadPct ?? profile.maxOverheadPct;
  let server: StartedServer | undefined;
  let lifecycle: LifecycleContext | undefined;

  const key = (): ResultKey => {
    if (!server) throw new Error('The server did not start; see the first error above');
    return { plugin: profile.name, title: profile.title, server: server.info, workload: workload.name, limitPct };
  };
  const log = (message: string) => {
    const where = server ? `${server.info.flavor} ${server.info.version}` : 'server';
    console.log(`[${profile.title} · ${where} · ${workload.name}] ${message}`);
  };

  async function runCheck(step: LifecycleStep, context: TestContext): Promise<void> {
    if (!lifecycle) throw new Error('The server did not start; see the first error above');
    try {
      const result = await step.run(lifecycle);
      context.task.meta.auditbench = { ...key(), kind: 'lifecycle', check: result };
      expect(result.observed, `${profile.title}: ${result.check}`).toEqual(result.expected);
    } catch (error) {
      if (!context.task.meta.auditbench) {
        const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
        const check = { check: step.id, expected: 'completes', observed, ok: false };
        context.task.meta.auditbench = { ...key(), kind: 'lifecycle', check };
      }
      throw error;
    }
  }

  describe(profile.title, () => {
    beforeAll(async () => {
      server = await startServer(config);
      lifecycle = lifecycleContext(server, profile);
      log(`started on 127.0.0.1:${server.connection.port}`);
    });
    afterAll(async () => {
      await server?.stop();
    });

    for (const step of lifecycleSteps.beforeMeasure) test(step.title, (context) => runCheck(step, context));

    test(`overhead under the ${workload.name} workload is within ${limitPct}%`, async (context) => {
      if (!server) throw new Error('The server did not start; see the first error above');
      await prepareMeasurement(server, profile, workload, log);
      const sample = await measureOverhead(server, profile, workload, log);
      const measurement = summariseMeasurement(sample, {
        limitPct,
        serverOptions: workload.serverOptions,
        pluginSettings: profile.measureSettings,
      });
      context.task.meta.auditbench = { ...key(), kind: 'measurement', measurement };
      log(`${measurement.verdict}: ${measurement.reason}`);
      if (measurement.verdict !== 'pass') {
        const where = `${profile.title} on ${server.info.flavor} ${server.info.version}, ${workload.name} workload`;
        const advice = measurement.verdict === 'inconclusive' ? ' (inconclusive counts as a failure)' : '';
        expect.fail(`${where}: ${measurement.reason}${advice}`);
      }
    });

    for (const step of lifecycleSteps.afterMeasure) test(step.title, (context) => runCheck(step, context));
  });
}
