import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { measureOverhead, prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { summariseCalibration, summariseMeasurement } from '../../src/bench/summarise.ts';
import { loadConfig } from '../../src/config/env.ts';
import { configHash } from '../../src/history/config-hash.ts';
import {
  type LifecycleContext,
  type LifecycleStep,
  lifecycleContext,
  lifecycleSteps,
} from '../../src/plugins/lifecycle/index.ts';
import type { PluginProfile } from '../../src/plugins/profile.ts';
import { describeMachine } from '../../src/results/machine.ts';
import type { Calibration } from '../../src/results/schema.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { getWorkload } from '../../src/workload/workloads.ts';
import { unavailableReason } from './availability.ts';

/**
 * The checks every plugin suite runs on a fresh server: the lifecycle, the A/A noise calibration, the overhead
 * gate, then uninstall. A plugin's suite file is `pluginSuite(profile)`.
 */
export function pluginSuite(profile: PluginProfile): void {
  const config = loadConfig();
  const workload = getWorkload(config.workload);
  const limitPct = config.maxOverheadPct ?? profile.maxOverheadPct;
  let server: StartedServer | undefined;
  let lifecycle: LifecycleContext | undefined;
  let skipReason: string | null = null;
  let prepared = false;
  let calibration: Calibration | null = null;

  const started = (): StartedServer => {
    if (!server) throw new Error('The server did not start; see the error of the first test');
    return server;
  };
  const key = (): ResultKey => ({
    plugin: profile.name,
    title: profile.title,
    server: started().info,
    workload: workload.name,
    limitPct,
    configHash: configHash(profile),
    machine: describeMachine(),
  });
  const log = (message: string) => {
    const where = server ? `${server.info.flavor} ${server.info.version}` : 'server';
    console.log(`[${profile.title} · ${where} · ${workload.name}] ${message}`);
  };
  const skipIfUnavailable = (context: TestContext) => {
    if (skipReason) context.skip(skipReason);
  };
  const prepare = async () => {
    if (prepared) return;
    await prepareMeasurement(started(), profile, workload, log);
    prepared = true;
  };

  async function runCheck(step: LifecycleStep, context: TestContext): Promise<void> {
    skipIfUnavailable(context);
    if (!lifecycle) throw new Error('The server did not start; see the error of the first test');
    try {
      const result = await step.run(lifecycle);
      context.task.meta.auditbench = { ...key(), kind: 'lifecycle', check: result };
      expect(result.observed, `${profile.title}: ${result.check}`).toEqual(result.expected);
    } catch (error) {
      if (!context.task.meta.auditbench && server) {
        const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
        context.task.meta.auditbench = {
          ...key(),
          kind: 'lifecycle',
          check: { check: step.id, expected: 'completes', observed, ok: false },
        };
      }
      throw error;
    }
  }

  describe(profile.title, () => {
    beforeAll(async () => {
      server = await startServer(config);
      lifecycle = lifecycleContext(server, profile);
      skipReason = await unavailableReason(server, profile);
      log(skipReason ? `skipped: ${skipReason}` : `started on 127.0.0.1:${server.connection.port}`);
    });
    afterAll(async () => {
      await server?.stop();
    });

    for (const step of lifecycleSteps.beforeMeasure) test(step.title, (context) => runCheck(step, context));

    test(`A/A calibration (plugin off in both arms) shows no overhead`, async (context) => {
      skipIfUnavailable(context);
      await prepare();
      const aa = { off: profile.disable, on: profile.disable };
      // A 95% interval misses 0 one time in 20 by chance; a second, independent A/A must miss it too to fail.
      for (let attempt = 1; attempt <= 2; attempt++) {
        const sample = await measureOverhead(started(), profile, workload, {
          limitPct: null,
          arms: aa,
          progress: log,
        });
        calibration = summariseCalibration(sample, workload.pairs);
        context.task.meta.auditbench = { ...key(), kind: 'calibration', calibration };
        log(
          `A/A ${attempt}: ${calibration.biasPct.toFixed(2)}% [${calibration.biasCi95.map((v) => v.toFixed(2)).join(', ')}], noise floor ±${calibration.noiseFloorPct.toFixed(2)}%, detectable ≥${calibration.minDetectablePct.toFixed(2)}%`,
        );
        if (calibration.containsZero) break;
      }
      expect(
        calibration?.containsZero,
        'the A/A interval should contain 0: the design is biased or the machine drifted',
      ).toBe(true);
    });

    test(`overhead under the ${workload.name} workload is within ${limitPct}%`, async (context) => {
      skipIfUnavailable(context);
      await prepare();
      const sample = await measureOverhead(started(), profile, workload, { limitPct, progress: log });
      const measurement = summariseMeasurement(sample, {
        limitPct,
        serverOptions: workload.serverOptions,
        pluginSettings: profile.measureSettings,
        calibration,
      });
      context.task.meta.auditbench = { ...key(), kind: 'measurement', measurement };
      log(`${measurement.verdict}: ${measurement.reason}`);
      const failing =
        measurement.verdict === 'fail' ||
        (measurement.verdict === 'inconclusive' && config.inconclusive === 'fail');
      if (failing) {
        const where = `${profile.title} on ${started().info.flavor} ${started().info.version}, ${workload.name} workload`;
        const advice =
          measurement.verdict === 'inconclusive'
            ? ' (inconclusive fails the gate: run a longer workload, e.g. AUDITBENCH_WORKLOAD=standard, or set AUDITBENCH_INCONCLUSIVE=pass)'
            : '';
        expect.fail(`${where}: ${measurement.reason}${advice}`);
      }
    });

    for (const step of lifecycleSteps.afterMeasure) test(step.title, (context) => runCheck(step, context));
  });
}
