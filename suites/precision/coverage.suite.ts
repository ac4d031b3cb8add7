import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { formatSummary } from '../../reporters/format/format-summary.ts';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { type Planned, planFor } from '../../src/bench/measure-plan.ts';
import { measureCalibration, measureRun } from '../../src/bench/pipeline.ts';
import { pluginSubject } from '../../src/bench/subject.ts';
import { loadEnvironment } from '../../src/config/env.ts';
import { type BackgroundLoad, startBackgroundLoad } from '../../src/machine/background-load.ts';
import { type Interference, judgeInterference } from '../../src/machine/block-interference.ts';
import { startSampler } from '../../src/machine/sampler.ts';
import { runSteps } from '../../src/plugins/steps.ts';
import { profiles } from '../../src/profiles/index.ts';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import { startServer } from '../../src/servers/start-server.ts';
import { coverageByCell, formatCoverage } from '../../src/stats/coverage.ts';
import { compareDesigns, type DesignRun, formatDesignComparison } from '../../src/stats/design-comparison.ts';
import { measuredSeconds } from '../../src/workload/aligned-design.ts';
import type { MeasurePlan } from '../../src/workload/workload.ts';
import { getWorkload } from '../../src/workload/workloads.ts';
import { type CoverageDesign, coverageSettings, type LoadCondition } from './coverage-settings.ts';

// npm run bench:coverage — do the 95% intervals keep their promise here? Two null controls, the A/A design and
// SQL_ERROR_LOG on OLTP (sysbench's statements never fail, so it logs nothing), run again and again with no added
// load, under a steady memory-bound load this script starts, and with that load switched on and off mid-run.
interface CoverageRun extends DesignRun {
  index: number;
  interference: Interference;
  /** SQL_ERROR_LOG runs: the per-second trace and switch times, for replaying through the estimator. */
  traces?: Measurement['runs'];
  measurement?: Measurement;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('coverage of the 95% interval on null controls, with and without a background load', async () => {
  const config = loadEnvironment();
  const settings = coverageSettings(process.env);
  const own = getWorkload(config.workload);
  const profile = profiles.sql_error_log;
  // The A/A's plan in each design, and the gate's: its arms, and one block when the settings ask for it.
  const aaPlan = (design: CoverageDesign): Planned =>
    planFor({ workload: own, ...(design !== 'own' && { segments: design }) });
  const gatePlan = (design: CoverageDesign): Planned =>
    planFor({
      workload: own,
      ...(design !== 'own' && { segments: design }),
      oneBlock: settings.blocks === 'one',
      arms: pluginSubject(profile).arms,
    });
  const limitPct = profile.maxOverheadPct;
  const log = (message: string) => console.log(`[coverage · ${own.name}] ${message}`);
  await using server = await startServer(config);
  await runSteps(server, profile.install, 'Installing');
  await prepareMeasurement(server, aaPlan('own'), log);
  const runs: CoverageRun[] = [];
  // A cell per condition, null control and design; the design is named only when more than one is measured.
  const label = (control: string, design: CoverageDesign) =>
    settings.designs.length > 1 ? `${control} · ${design}` : control;

  // The load runs for the whole measurement ('load'), or starts about a quarter into the measured block and stops
  // at three quarters ('steps'), which gives the estimator the kind of speed step this VM's neighbours cause. The
  // warm-up ends when the server has (minWarmupS to warmupS): the timers assume its usual, shortest length.
  async function underCondition<T>(
    condition: LoadCondition,
    plan: MeasurePlan,
    measure: () => Promise<T>,
  ): Promise<T> {
    let load: BackgroundLoad | null = null;
    const timers: NodeJS.Timeout[] = [];
    const start = async () => {
      load = await startBackgroundLoad({ processes: settings.loadProcesses });
    };
    if (condition === 'load') await start();
    if (condition === 'steps') {
      const blockS = measuredSeconds(plan);
      timers.push(setTimeout(() => void start(), (plan.minWarmupS + blockS / 4) * 1000));
      timers.push(
        setTimeout(
          () => void (load as BackgroundLoad | null)?.stop(),
          (plan.minWarmupS + (3 * blockS) / 4) * 1000,
        ),
      );
    }
    try {
      return await measure();
    } finally {
      for (const timer of timers) clearTimeout(timer);
      await sleep(100);
      await (load as BackgroundLoad | null)?.stop();
    }
  }

  async function sampled<T>(measure: () => Promise<T>): Promise<[T, Interference, number]> {
    const sampler = await startSampler();
    const started = performance.now();
    const value = await measure();
    const wallS = (performance.now() - started) / 1000;
    return [value, judgeInterference([await sampler.stop()], 'warn'), wallS];
  }

  for (let index = 1; index <= settings.runs; index++) {
    // Alternate the order of conditions and of designs so that a drift over the session does not fall on one of them.
    const order = index % 2 === 1 ? settings.conditions : [...settings.conditions].reverse();
    const designs = index % 2 === 1 ? settings.designs : [...settings.designs].reverse();
    for (const condition of order) {
      for (const design of designs) {
        const aaPlanned = aaPlan(design);
        const { plan } = aaPlanned;
        const [aa, aaInterference, aaWallS] = await underCondition(condition, plan, () =>
          sampled(() => measureCalibration(server, aaPlanned, { progress: () => {} })),
        );
        runs.push({
          index,
          condition,
          design: label('A/A', design),
          segmentDesign: design,
          ci95Pct: aa.biasCi95,
          estimatePct: aa.biasPct,
          pairs: aa.pairs,
          measuredS: measuredSeconds({ ...plan, pairs: aa.pairs }),
          wallS: aaWallS,
          runToRunSdLog: plan.runToRunSdLog,
          interference: aaInterference,
        });
        const [gate, gateInterference, gateWallS] = await underCondition(condition, plan, () =>
          sampled(() =>
            measureRun(server, profile, gatePlan(design), {
              limitPct,
              calibration: null,
              progress: () => {},
            }),
          ),
        );
        runs.push({
          index,
          condition,
          design: label('SQL_ERROR_LOG', design),
          segmentDesign: design,
          ci95Pct: gate.overheadCi95 ?? [Number.NaN, Number.NaN],
          estimatePct: gate.overheadPct,
          pairs: gate.pairs,
          measuredS: measuredSeconds({ ...plan, pairs: gate.pairs }),
          wallS: gateWallS,
          runToRunSdLog: plan.runToRunSdLog,
          interference: gateInterference,
          traces: gate.runs,
          measurement: { ...gate, interference: gateInterference },
        });
        for (const run of runs.slice(-2)) {
          log(
            `${index}/${settings.runs} ${condition} · ${run.design}: ${run.estimatePct.toFixed(2)}% [${run.ci95Pct.map((v) => v.toFixed(2)).join(', ')}], ${run.pairs} pairs, ${run.wallS.toFixed(0)} s; ${run.interference.reason}`,
          );
        }
      }
    }
  }

  const cells = coverageByCell(runs);
  const selfPct = Math.max(...runs.map((r) => r.interference.selfCpuPct));
  const otherPct = (condition: string) => {
    const inCondition = runs.filter((r) => r.condition === condition);
    return inCondition.reduce((s, r) => s + r.interference.otherCpuPct, 0) / inCondition.length;
  };
  const designNames = settings.designs.map((d) =>
    d === 'own' ? `its own design (${describeSegments(own)})` : `${d} (${describeSegments(aaPlan(d).plan)})`,
  );
  const comparison = compareDesigns(runs);
  console.log(
    [
      `\nbench:coverage (${own.name} workload, ${designNames.join(' and ')}, ${settings.blocks === 'one' ? 'one block per interval' : 'the gate adaptive'}, ${server.info.flavor} ${server.info.version}, ${settings.runs} runs per condition and design)`,
      formatCoverage(cells),
      '',
      formatDesignComparison(comparison),
      ...settings.conditions.map(
        (c) => `${c}: other processes used ${otherPct(c).toFixed(0)}% of a core on average during its runs`,
      ),
      `auditbench's own CPU while measuring: at most ${selfPct.toFixed(1)}% of a core`,
    ].join('\n'),
  );
  // The summary as a gate run prints it, for one run with the load and one without: only the first is marked.
  const examples = ['load', 'quiet'].flatMap((c) => {
    const run = runs.find((r) => r.condition === c && r.measurement);
    return run?.measurement ? [asResult(run.measurement, c, server.info)] : [];
  });
  if (examples.length > 0)
    console.log(`\nSummary rows of one SQL_ERROR_LOG run per condition:\n${formatSummary(examples)}`);
  await mkdir(config.reportDir, { recursive: true });
  await writeFile(
    path.join(config.reportDir, 'coverage.json'),
    `${JSON.stringify({ workload: own.name, server: server.info, settings, cells, comparison, runs }, null, 2)}\n`,
  );
  expect(runs).toHaveLength(settings.runs * settings.conditions.length * settings.designs.length * 2);
});

function describeSegments(plan: MeasurePlan): string {
  const { design } = plan;
  if (design.kind !== 'toggle') return 'separate runs';
  return `${plan.pairs} pairs of ${design.segmentS} s, ${design.aligned ? 'switched on report boundaries' : "each switch's second dropped"}`;
}

function asResult(m: Measurement, condition: string, server: PluginResult['server']): PluginResult {
  return {
    plugin: 'SQL_ERROR_LOG',
    title: `SQL_ERROR_LOG (${condition})`,
    server,
    workload: 'coverage',
    baselineTps: m.baselineTps,
    pluginTps: m.pluginTps,
    overheadPct: m.overheadPct,
    limitPct: m.limitPct,
    verdict: m.verdict,
    overheadCi95: m.overheadCi95,
    pairs: m.pairs,
    noiseFloorPct: null,
    minDetectablePct: null,
    logBytesPerTxn: m.logBytesPerTxn,
    lifecycle: [],
    measurement: m,
    calibration: null,
  };
}
