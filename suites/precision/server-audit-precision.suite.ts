import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { planFor } from '../../src/bench/measure-plan.ts';
import { measureCalibration, measureRun } from '../../src/bench/pipeline.ts';
import { formatPrecisionReport, precisionReport } from '../../src/bench/precision.ts';
import { pluginSubject } from '../../src/bench/subject.ts';
import { loadEnvironment, wholeNumber } from '../../src/config/env.ts';
import { runSteps } from '../../src/plugins/steps.ts';
import { profiles } from '../../src/profiles/index.ts';
import type { Calibration, Measurement } from '../../src/results/schema.ts';
import { startServer } from '../../src/servers/start-server.ts';
import { getWorkload } from '../../src/workload/workloads.ts';
import { studyOptions } from './study-options.ts';

// npm run bench:precision — how repeatable is the server_audit verdict on this machine and workload?
test('server_audit overhead precision and A/A false alarms', async () => {
  const config = loadEnvironment();
  // AUDITBENCH_STUDY='runs=5 aa-runs=10': server_audit measurements and A/A runs to repeat.
  const option = studyOptions(process.env, ['runs', 'aa-runs']);
  const repeat = {
    overhead: option('runs', wholeNumber(1, 100), 5),
    aa: option('aa-runs', wholeNumber(1, 100), 10),
  };
  const workload = getWorkload(config.workload);
  const profile = profiles.server_audit;
  const limitPct = profile.maxOverheadPct;
  const log = (message: string) => console.log(`[precision · ${workload.name}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, 'Installing');
  const aa = planFor({ workload });
  const planned = planFor({ workload, arms: pluginSubject(profile).arms });
  await prepareMeasurement(server, aa, log);
  const calibrations: Calibration[] = [];
  const measurements: Measurement[] = [];
  for (let i = 1; i <= repeat.aa; i++) {
    calibrations.push(await measureCalibration(server, aa, { progress: log }));
    log(`A/A ${i}/${repeat.aa}: ${calibrations.at(-1)?.biasPct.toFixed(2)}%`);
  }
  for (let i = 1; i <= repeat.overhead; i++) {
    measurements.push(
      await measureRun(server, profile, planned, { limitPct, calibration: null, progress: log }),
    );
    log(`overhead ${i}/${repeat.overhead}: ${measurements.at(-1)?.reason}`);
  }
  const report = precisionReport(measurements, calibrations);
  const text = formatPrecisionReport(report);
  console.log(
    `\nbench:precision (${workload.name} workload, ${server.info.flavor} ${server.info.version})\n${text}`,
  );
  await mkdir(config.reportDir, { recursive: true });
  await writeFile(
    path.join(config.reportDir, 'precision.json'),
    `${JSON.stringify({ workload: workload.name, report, measurements, calibrations }, null, 2)}\n`,
  );
  expect(report.overheadRuns).toBe(repeat.overhead);
});
