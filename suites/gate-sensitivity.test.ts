import { expect, test } from 'vitest';
import { serverAudit } from '../fixtures/plugins/server-audit.ts';
import { measureOverhead, prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { summariseMeasurement } from '../src/bench/summarise.ts';
import { loadConfig } from '../src/config/env.ts';
import { runSteps } from '../src/plugins/steps.ts';
import { startServer } from '../src/servers/start-server.ts';
import { decideVerdict } from '../src/stats/verdict.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// The gate must catch a real overhead: one measurement of a plugin that clearly costs throughput fails a limit
// set below what was measured and passes one set well above it. Checked on the real server, not on numbers.
test('a real overhead fails a limit below it and passes a limit above it', async () => {
  const config = loadConfig();
  const workload = getWorkload(config.workload);
  const profile = serverAudit;
  const log = (message: string) => console.log(`[gate sensitivity · ${profile.title}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, `Installing ${profile.name}`);
  await prepareMeasurement(server, profile, workload, log);
  // Aim the adaptive stop at a 5% limit: it keeps measuring until the interval clears 5% one way or the other.
  const sample = await measureOverhead(server, profile, workload, { limitPct: 5, progress: log });
  const m = summariseMeasurement(sample, {
    limitPct: 5,
    serverOptions: workload.serverOptions,
    pluginSettings: profile.measureSettings,
    calibration: null,
  });
  log(m.reason);
  expect(m.overheadCi95, 'an interval needs at least two pairs').not.toBeNull();
  const [lowerPct, upperPct] = m.overheadCi95 ?? [0, 0];
  expect(
    lowerPct,
    `${profile.title} should cost clearly more than nothing here: ${m.reason}`,
  ).toBeGreaterThan(0);
  const below = lowerPct / 2;
  const above = Math.min(99, upperPct + 10);
  expect(decideVerdict({ estimatePct: m.overheadPct, ci95: m.overheadCi95, limitPct: below }).verdict).toBe(
    'fail',
  );
  expect(decideVerdict({ estimatePct: m.overheadPct, ci95: m.overheadCi95, limitPct: above }).verdict).toBe(
    'pass',
  );
});
