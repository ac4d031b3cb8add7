import { expect, test } from 'vitest';
import { profiles } from '../fixtures/plugins/index.ts';
import { prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { measureGate } from '../src/bench/pipeline.ts';
import { loadConfig } from '../src/config/env.ts';
import { runSteps } from '../src/plugins/steps.ts';
import { startServer } from '../src/servers/start-server.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// The gate must catch a real overhead: the gate run with a limit below what the plugin costs fails, and a second gate
// run with a limit well above it passes. Both verdicts come from real measurements on a real server, each stopped by
// the adaptive rule, so either can come out wrong; nothing here re-derives a verdict from an interval it was given.
test('a real overhead fails a limit below it and passes a limit above it', async () => {
  const config = loadConfig();
  const workload = getWorkload(config.workload);
  const profile = profiles.server_audit;
  const progress = (message: string) => console.log(`[gate sensitivity · ${profile.title}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, `Installing ${profile.name}`);
  await prepareMeasurement(server, workload, progress);
  const gate = (limitPct: number) =>
    measureGate(server, profile, workload, { limitPct, calibration: null, progress });
  // server_audit has cost 9–20% here on every workload; 5% is well below that.
  const strict = await gate(5);
  expect(strict.verdict, `${profile.title} at a 5% limit: ${strict.reason}`).toBe('fail');
  const [lowerPct = 0, upperPct = 0] = strict.overheadCi95 ?? [];
  expect(lowerPct, `a failing verdict needs an interval above the limit: ${strict.reason}`).toBeGreaterThan(
    5,
  );
  // Well above: 10 pp over the upper bound just measured.
  const lenient = await gate(Math.min(99, Math.ceil(upperPct + 10)));
  expect(lenient.verdict, `${profile.title} at a lenient limit: ${lenient.reason}`).toBe('pass');
});
