import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { limitFailure } from '../src/bench/pipeline.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { underTraffic } from '../src/orchestrate/under-traffic.ts';
import { lifecycleSteps } from '../src/plugins/lifecycle/index.ts';
import { profiles } from '../src/profiles/index.ts';
import type { Measurement } from '../src/results/schema.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import { checkOwnScripts } from '../src/traffic/run-traffic.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// What a configuration logged of the traffic it was measured under, and traffic that holds what it logs
// (docs/traffic.md). Three runs of suites/traffic/auditbench.config.ts on one local server, each gate one block of
// the quick workload (4 pairs, 16 s, after a 6 s warm-up): these tests check what was logged and sent, not a
// verdict's precision (src/orchestrate/under-traffic.ts measures). CONNECT only with new connections added is measured
// from a production option file by suites/pack-install.suite.ts's `pci`; it is not measured here a second time.
const config = loadEnvironment();
const configPath = fileURLToPath(new URL('./traffic/auditbench.config.ts', import.meta.url));
const runs = await loadRuns({ configPath, runIds: null }, profiles);
checkOwnScripts(runs, configPath);
const workload = { ...getWorkload('quick'), maxPairs: 4 };

const run = (id: string): ResolvedRun => {
  const found = runs.find((r) => r.id === id);
  if (!found) throw new Error(`suites/traffic/auditbench.config.ts has no run '${id}'`);
  return found;
};

const on = underTraffic(
  { ...config, workload: 'quick' },
  { accounts: run('connect-idle').traffic.accounts, workload, configPath },
);
/** A run measured under its traffic, its record on the test. */
const measure = async (r: ResolvedRun, context: { task: { meta: object } }): Promise<Measurement> => {
  const { measurement, record } = await on.measure(r);
  Object.assign(context.task.meta, { auditbench: record });
  return measurement;
};

describe('traffic: what the configuration logged, and traffic that holds it (server_audit, quick × 4 pairs)', () => {
  const failureOf = (m: Measurement, r: ResolvedRun) =>
    limitFailure(m, { inconclusive: 'pass', interference: 'warn' }, r.id);
  beforeAll(() => on.start());
  afterAll(() => on.stop());

  describe('query-limit: a low server_audit_query_log_limit passes its lifecycle checks', () => {
    const r = run('query-limit');
    for (const step of lifecycleSteps.beforeMeasure) {
      test(step.title, async (context) => {
        const result = await step.run(await on.lifecycle(r));
        context.task.meta.auditbench = { ...on.key(r), kind: 'lifecycle', check: result };
        expect(result.observed, `${r.id}: ${result.check}`).toEqual(result.expected);
      });
    }
  });

  test('connect-idle: CONNECT only under persistent connections is an idle plugin, and fails', async (context) => {
    const r = run('connect-idle');
    const measurement = await measure(r, context);
    expect(measurement.auditEvents?.idle).toBe(true);
    expect(measurement.auditEvents?.fromTrafficPerTxn).toBe(0);
    expect(measurement.verdict).toBe('idle');
    expect(measurement.auditEvents?.cause).toBe('events-absent');
    expect(failureOf(measurement, r)).toMatch(
      /^connect-idle: measured an idle plugin: server_audit_events=CONNECT logs only CONNECT, which sysbench's persistent connections never send: add `traffic: \{ added: \{ connectionsPerS: 10 \} \}`/,
    );
  });

  test("kv-script: a DBA's Lua script runs, toggled like OLTP", async (context) => {
    const r = run('kv-script');
    const measurement = await measure(r, context);
    expect(measurement.runs.every((m) => m.arm === 'toggled')).toBe(true);
    expect(measurement.pairs).toBeGreaterThan(0);
    expect(measurement.auditEvents?.perTxnByClass.QUERY ?? 0).toBeGreaterThan(0);
    expect(measurement.auditEvents?.idle).toBe(false);
  });

  // Last: the path stays set until the server stops. What the server said is in the line, quoted from its status.
  test('log-unwritable: a log the plugin cannot create is a silent plugin that fails, naming the path and the error', async (context) => {
    const r = run('log-unwritable');
    const measurement = await measure(r, context);
    expect(measurement.verdict).toBe('idle');
    expect(measurement.logBytes).toBe(0);
    expect(measurement.auditEvents?.cause).toBe('log-unwritable');
    const failure = failureOf(measurement, r);
    expect(failure).toMatch(
      /^log-unwritable: measured an idle plugin: SERVER_AUDIT could not write its log auditbench-no-such-dir\/server_audit\.log \(in the datadir\) \(Server_audit_last_error: Could not create file/,
    );
    // A plugin that cannot write its log fails whatever the run's idle policy says.
    expect(
      limitFailure(measurement, { inconclusive: 'pass', interference: 'warn', idle: 'pass' }, r.id),
    ).toBe(failure);
  });
});
