import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { planFor } from '../../src/bench/measure-plan.ts';
import { loadEnvironment } from '../../src/config/env.ts';
import { type BackgroundLoad, startBackgroundLoad } from '../../src/machine/background-load.ts';
import { startSampler } from '../../src/machine/sampler.ts';
import { startServer } from '../../src/servers/start-server.ts';
import { runSysbench } from '../../src/workload/sysbench-runner.ts';
import { getWorkload } from '../../src/workload/workloads.ts';

// Records long per-second TPS traces with nothing toggled, for src/stats/trace-replay.test.ts and the bench:noise and bench:segments replays: one with no added
// load, one with the memory-bound load switched on for its middle third (a speed step of our own making).
// AUDITBENCH_STUDY= AUDITBENCH_WORKLOAD=smoke npx vitest run --project precision record-trace
const TRACE_S = 150;

test('record per-second TPS traces for the replay test', async () => {
  const config = loadEnvironment();
  const workload = getWorkload(config.workload);
  const log = (message: string) => console.log(`[record-trace · ${workload.name}] ${message}`);
  await using server = await startServer(config);
  const planned = planFor({ workload });
  await prepareMeasurement(server, planned, log);
  await server.pinCpus?.('0');
  const cpus = server.pinCpus ? '1' : undefined;
  const warmup = await runSysbench(server.connection, planned.job, {
    durationS: planned.plan.warmupS,
    ...(cpus && { cpus }),
  });
  expect(warmup.ok).toBe(true);
  const traces: {
    name: string;
    condition: 'quiet' | 'steps';
    loadS: [number, number] | null;
    otherCpuPct: number;
    tpsPerSecond: number[];
  }[] = [];
  for (const stepped of [false, true]) {
    let load: BackgroundLoad | null = null;
    const loadS: [number, number] = [TRACE_S / 3, (2 * TRACE_S) / 3];
    const timers = stepped
      ? [
          setTimeout(async () => {
            load = await startBackgroundLoad();
          }, loadS[0] * 1000),
          setTimeout(() => void (load as BackgroundLoad | null)?.stop(), loadS[1] * 1000),
        ]
      : [];
    const sampler = await startSampler();
    const run = await runSysbench(server.connection, planned.job, {
      durationS: TRACE_S,
      ...(cpus && { cpus }),
    });
    const use = await sampler.stop();
    for (const timer of timers) clearTimeout(timer);
    await (load as BackgroundLoad | null)?.stop();
    if (!run.ok) throw new Error(`The trace run is invalid: ${run.reason}`);
    const name = stepped ? 'load-middle-third' : 'no-added-load';
    traces.push({
      name,
      condition: stepped ? 'steps' : 'quiet',
      loadS: stepped ? loadS : null,
      otherCpuPct: use.otherCpuPct,
      tpsPerSecond: run.result.intervals.map((i) => i.tps),
    });
    log(
      `${name}: ${run.result.tps.toFixed(0)} tps, other processes ${use.otherCpuPct.toFixed(0)}% of a core`,
    );
  }
  await mkdir(config.reportDir, { recursive: true });
  const recordedAt = new Date().toISOString();
  await writeFile(
    path.join(config.reportDir, 'traces.json'),
    `${JSON.stringify({ recordedAt, workload: workload.name, server: server.info, traces }, null, 2)}\n`,
  );
});
