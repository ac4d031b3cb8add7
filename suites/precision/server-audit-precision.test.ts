import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { serverAudit } from '../../fixtures/plugins/server-audit.ts';
import { measureOverhead, prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { formatPrecisionReport, precisionReport } from '../../src/bench/precision.ts';
import { summariseCalibration, summariseMeasurement } from '../../src/bench/summarise.ts';
import { loadConfig } from '../../src/config/env.ts';
import { runSteps } from '../../src/plugins/steps.ts';
import type { Calibration, Measurement } from '../../src/results/schema.ts';
import { startServer } from '../../src/servers/start-server.ts';
import { getWorkload } from '../../src/workload/workloads.ts';

// npm run bench:precision — how repeatable is the server_audit verdict on this machine and workload?
test('server_audit overhead precision and A/A false alarms', async () => {
  const config = loadConfig();
  const workload = getWorkload(config.workload);
  const profile = serverAudit;
  const limitPct = config.maxOverheadPct ?? profile.maxOverheadPct;
  const log = (message: string) => console.log(`[precision · ${workload.name}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, 'Installing');
  await prepareMeasurement(server, profile, workload, log);
  const calibrations: Calibration[] = [];
  const measurements: Measurement[] = [];
  for (let i = 1; i <= config.precisionRuns.aa; i++) {
    const sample = await measureOverhead(server, profile, workload, {
      limitPct: null,
      arms: { off: profile.disable, on: profile.disable },
    });
    calibrations.push(summariseCalibration(sample, workload.pairs));
    log(`A/A ${i}/${config.precisionRuns.aa}: ${calibrations.at(-1)?.biasPct.toFixed(2)}%`);
  }
  for (let i = 1; i <= config.precisionRuns.overhead; i++) {
    const sample = await measureOverhead(server, profile, workload, { limitPct });
    const calibration = null;
    measurements.push(
      summariseMeasurement(sample, {
        limitPct,
        serverOptions: workload.serverOptions,
        pluginSettings: profile.measureSettings,
        calibration,
      }),
    );
    log(`overhead ${i}/${config.precisionRuns.overhead}: ${measurements.at(-1)?.reason}`);
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
  expect(report.overheadRuns).toBe(config.precisionRuns.overhead);
});
