import { expect, test } from 'vitest';
import { prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { planFor } from '../src/bench/measure-plan.ts';
import { measureRun } from '../src/bench/pipeline.ts';
import { pluginSubject } from '../src/bench/subject.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { runSteps } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import { startServer } from '../src/servers/start-server.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// The gate must catch a real overhead: the gate run with a limit below what the plugin costs fails, and a second gate
// run with a limit well above it passes. Both verdicts come from real measurements on a real server, each stopped by
// the adaptive rule, so either can come out wrong; nothing here re-derives a verdict from an interval it was given.
test('a real overhead fails a limit below it and passes a limit above it', async () => {
  const config = loadEnvironment();
  // Whether the gate sees a cost is a claim about its power. On quick the first block of 4 pairs has cleared the 1%
  // limit each time seen here (13.9% [8.9, 18.6]; 20.9% [2.0, 36.1], by 1 point); a block that does not is followed
  // by more blocks within smoke's budget, so the verdict stays 'fail' and only the time grows. Until 2026-12-04 this
  // test measured on smoke (12-pair blocks), for about 35 s more of every `./auditbench test`.
  const workload = getWorkload(config.workload);
  const profile = profiles.server_audit;
  const progress = (message: string) => console.log(`[gate sensitivity · ${profile.title}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, `Installing ${profile.name}`);
  const planned = planFor({ workload, arms: pluginSubject(profile).arms });
  await prepareMeasurement(server, planned, progress);
  const gate = (limitPct: number) =>
    measureRun(server, profile, planned, { limitPct, calibration: null, progress });
  // server_audit has cost 8–18% here; a 5% limit once sat inside smoke's interval (12.7% [4.6, 20.1] in one CI run),
  // so the strict limit is 1%: below any cost it has had here, and still a limit the gate must see it exceed.
  const strictPct = 1;
  const strict = await gate(strictPct);
  expect(strict.verdict, `${profile.title} at a ${strictPct}% limit: ${strict.reason}`).toBe('fail');
  const [lowerPct = 0, upperPct = 0] = strict.overheadCi95 ?? [];
  expect(lowerPct, `a failing verdict needs an interval above the limit: ${strict.reason}`).toBeGreaterThan(
    strictPct,
  );
  // Well above: 20 pp over the upper bound just measured, and never below the profile's own limit. The second
  // measurement's interval can be wider than the first's: one was 11.7% [-9.0, 28.4] after 17.2% [11.6, 22.4].
  const lenient = await gate(Math.min(99, Math.max(profile.maxOverheadPct, Math.ceil(upperPct + 20))));
  expect(lenient.verdict, `${profile.title} at a lenient limit: ${lenient.reason}`).toBe('pass');
});
