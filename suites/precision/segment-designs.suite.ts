import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { type Planned, planFor } from '../../src/bench/measure-plan.ts';
import { measureCalibration } from '../../src/bench/pipeline.ts';
import { loadEnvironment } from '../../src/config/env.ts';
import { startServer } from '../../src/servers/start-server.ts';
import { measuredSeconds } from '../../src/workload/aligned-design.ts';
import type { Workload } from '../../src/workload/workload.ts';
import { getWorkload } from '../../src/workload/workloads.ts';

// The dropped-second toggle design (3 s segments) beside the aligned one (switches timed to land just before sysbench's report boundaries,
// no second dropped), as A/A null controls on one server, the two designs alternating ABBA so the machine's drift
// falls on both: the live check of what `npm run bench:segments` replays. Each A/A is one block of about the same
// length (smoke: 8 pairs of 3 s against 12 pairs of 2 s, 48 s, plus the aligned design's 1 s lead-in).
// AUDITBENCH_STUDY= AUDITBENCH_WORKLOAD=smoke npx vitest run --project precision segment-designs
const ROUNDS = 6;

interface DesignRun {
  round: number;
  design: 'dropped' | 'aligned';
  pairs: number;
  measuredS: number;
  biasPct: number;
  ci95: [number, number];
  containsZero: boolean;
}

// One block each: the aligned design's 2 s segments (ALIGNED_SEGMENT_S; in the replay,
// docs/measurements/2026-12-01-segments.md, 1 s segments covered 0 in only 83–90% of windows) in the same seconds
// as the dropped-second block.
function designs(workload: Workload): Record<DesignRun['design'], Planned> {
  return {
    dropped: planFor({ workload, segments: 'dropped', oneBlock: true }),
    aligned: planFor({ workload, segments: 'aligned', oneBlock: true }),
  };
}

test('A/A half-width of the dropped-second design and the aligned one, alternating on one server', async () => {
  const config = loadEnvironment();
  const workload = getWorkload(config.workload);
  const byDesign = designs(workload);
  const log = (message: string) => console.log(`[segment-designs · ${workload.name}] ${message}`);
  await using server = await startServer(config);
  await prepareMeasurement(server, planFor({ workload }), log);
  const runs: DesignRun[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order: DesignRun['design'][] = round % 2 === 1 ? ['dropped', 'aligned'] : ['aligned', 'dropped'];
    for (const design of order) {
      const w = byDesign[design];
      const calibration = await measureCalibration(server, w, {
        progress: log,
        interference: 'warn',
      });
      const run: DesignRun = {
        round,
        design,
        pairs: calibration.pairs,
        measuredS: measuredSeconds(w.plan),
        biasPct: calibration.biasPct,
        ci95: calibration.biasCi95,
        containsZero: calibration.containsZero,
      };
      runs.push(run);
      log(
        `round ${round} ${design}: ${run.biasPct.toFixed(2)}% [${run.ci95.map((v) => v.toFixed(2)).join(', ')}], ${run.pairs} pairs in ${run.measuredS} s`,
      );
    }
  }
  for (const design of ['dropped', 'aligned'] as const) {
    const mine = runs.filter((r) => r.design === design);
    const halfWidths = mine.map((r) => (r.ci95[1] - r.ci95[0]) / 2);
    const mean = halfWidths.reduce((a, b) => a + b, 0) / halfWidths.length;
    const perMinute = mean * Math.sqrt((mine[0]?.measuredS ?? 60) / 60);
    log(
      `${design}: ${mine.filter((r) => r.containsZero).length}/${mine.length} contain 0, mean half-width ${mean.toFixed(2)} pp over ${mine[0]?.measuredS} s (${perMinute.toFixed(2)} pp scaled to one minute as 1/√t)`,
    );
  }
  await mkdir(config.reportDir, { recursive: true });
  await writeFile(
    path.join(config.reportDir, 'segment-designs.json'),
    `${JSON.stringify({ recordedAt: new Date().toISOString(), workload: workload.name, server: server.info, runs }, null, 2)}\n`,
  );
  expect(runs).toHaveLength(2 * ROUNDS);
});
