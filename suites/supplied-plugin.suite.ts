import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { measureAsApplication } from '../src/orchestrate/as-application.ts';
import { type LifecycleStep, lifecycleSteps } from '../src/plugins/lifecycle/index.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { benchAudit, benchAuditFile } from '../test/support/bench-audit-profile.ts';
import { suppliedServer } from './supplied-plugin/supplied-server.ts';

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
  const progress = (message: string) => console.log(`[supplied plugin] ${message}`);
  const supplied = suppliedServer(config, progress);
  beforeAll(() => supplied.start());
  afterAll(() => supplied.stop());

  async function check(step: LifecycleStep, context: TestContext): Promise<void> {
    const result = await step.run(supplied.ready(context).lifecycle);
    expect(result.observed, `BENCH_AUDIT: ${result.check}`).toEqual(result.expected);
  }

  for (const step of lifecycleSteps.beforeMeasure) test(step.title, (context) => check(step, context));

  test('the *.cnf beside the library reached the server: bench_audit_file is its value', async (context) => {
    const { rows } = await supplied.ready(context).server.query('SELECT @@GLOBAL.bench_audit_file AS file');
    expect(rows[0]?.file).toBe(benchAuditFile);
  });

  test('one short block measures it and finds its log growing', async (context) => {
    const { server, connections } = supplied.ready(context);
    const { measurement } = await measureAsApplication(server, benchAudit, {
      plan: { workload: shortWarmUp, cell: true, oneBlock: true },
      application: connections.application,
      limitPct: benchAudit.maxOverheadPct,
      progress,
    });
    progress(
      `${measurement.overheadPct.toFixed(1)}% (${measurement.verdict}), ${(measurement.logBytesPerTxn ?? 0).toFixed(0)} log bytes a transaction`,
    );
    expect(measurement.logBytesPerTxn ?? 0, 'the plugin wrote nothing while it was on').toBeGreaterThan(0);
  });

  for (const step of lifecycleSteps.afterMeasure) test(step.title, (context) => check(step, context));
});
