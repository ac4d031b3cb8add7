import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatSummary } from '../../reporters/format/format-summary.ts';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { type Planned, planFor } from '../../src/bench/measure-plan.ts';
import { measureCalibration, measureRun } from '../../src/bench/pipeline.ts';
import { pluginSubject } from '../../src/bench/subject.ts';
import type { Environment } from '../../src/config/env.ts';
import { type BackgroundLoad, startBackgroundLoad } from '../../src/machine/background-load.ts';
import { type Interference, judgeInterference } from '../../src/machine/block-interference.ts';
import { startSampler } from '../../src/machine/sampler.ts';
import { runSteps } from '../../src/plugins/steps.ts';
import { profiles } from '../../src/profiles/index.ts';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { coverageByCell, formatCoverage } from '../../src/stats/coverage.ts';
import { compareDesigns, type DesignRun, formatDesignComparison } from '../../src/stats/design-comparison.ts';
import { measuredSeconds } from '../../src/workload/aligned-design.ts';
import type { MeasurePlan, Workload } from '../../src/workload/workload.ts';
import { getWorkload } from '../../src/workload/workloads.ts';
import type { CoverageDesign, CoverageSettings, LoadCondition } from './coverage-settings.ts';

// The study of suites/precision/coverage.suite.ts (npm run bench:coverage): two null controls, the A/A design and
// SQL_ERROR_LOG on OLTP (sysbench's statements never fail, so it logs nothing), run again and again with no added
// load, under a steady memory-bound load this script starts, and with that load switched on and off mid-run.

export interface CoverageRun extends DesignRun {
  index: number;
  interference: Interference;
  /** SQL_ERROR_LOG runs: the per-second trace and switch times, for replaying through the estimator. */
  traces?: Measurement['runs'];
  measurement?: Measurement;
}

/** What every step of the study reads: the settings, the workload, the plugin, the server and the plans. */
interface Study {
  settings: CoverageSettings;
  own: Workload;
  server: StartedServer;
  log: (message: string) => void;
  /** The A/A's plan in each design. */
  aaPlan(design: CoverageDesign): Planned;
  /** The gate's: its arms, and one block when the settings ask for it. */
  gatePlan(design: CoverageDesign): Planned;
  /** A cell per condition, null control and design; the design is named only when more than one is measured. */
  label(control: string, design: CoverageDesign): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const profile = profiles.sql_error_log;

/** Every run of the study, reported on the console and in coverage.json. */
export async function coverageStudy(config: Environment, settings: CoverageSettings): Promise<CoverageRun[]> {
  const own = getWorkload(config.workload);
  const log = (message: string) => console.log(`[coverage · ${own.name}] ${message}`);
  await using server = await startServer(config);
  const segments = (design: CoverageDesign) => (design !== 'own' ? { segments: design } : {});
  const study: Study = {
    settings,
    own,
    server,
    log,
    aaPlan: (design) => planFor({ workload: own, ...segments(design) }),
    gatePlan: (design) =>
      planFor({
        workload: own,
        ...segments(design),
        oneBlock: settings.blocks === 'one',
        arms: pluginSubject(profile).arms,
      }),
    label: (control, design) => (settings.designs.length > 1 ? `${control} · ${design}` : control),
  };
  await runSteps(server, profile.install, 'Installing');
  await prepareMeasurement(server, study.aaPlan('own'), log);
  const runs: CoverageRun[] = [];
  for (let index = 1; index <= settings.runs; index++) {
    // Alternate the order of conditions and of designs so that a drift over the session does not fall on one of them.
    const order = index % 2 === 1 ? settings.conditions : [...settings.conditions].reverse();
    const designs = index % 2 === 1 ? settings.designs : [...settings.designs].reverse();
    for (const condition of order) {
      for (const design of designs) runs.push(...(await bothControls(study, index, condition, design)));
    }
  }
  await report(study, config.reportDir, runs);
  return runs;
}

/** The A/A and SQL_ERROR_LOG once each, under one condition and design. */
async function bothControls(
  study: Study,
  index: number,
  condition: LoadCondition,
  design: CoverageDesign,
): Promise<CoverageRun[]> {
  const { server, settings } = study;
  const aaPlanned = study.aaPlan(design);
  const { plan } = aaPlanned;
  const [aa, aaInterference, aaWallS] = await underCondition(settings, condition, plan, () =>
    sampled(() => measureCalibration(server, aaPlanned, { progress: () => {} })),
  );
  const [gate, gateInterference, gateWallS] = await underCondition(settings, condition, plan, () =>
    sampled(() =>
      measureRun(server, profile, study.gatePlan(design), {
        limitPct: profile.maxOverheadPct,
        calibration: null,
        progress: () => {},
      }),
    ),
  );
  const both: CoverageRun[] = [
    {
      index,
      condition,
      design: study.label('A/A', design),
      segmentDesign: design,
      ci95Pct: aa.biasCi95,
      estimatePct: aa.biasPct,
      pairs: aa.pairs,
      measuredS: measuredSeconds({ ...plan, pairs: aa.pairs }),
      wallS: aaWallS,
      runToRunSdLog: plan.runToRunSdLog,
      interference: aaInterference,
    },
    {
      index,
      condition,
      design: study.label('SQL_ERROR_LOG', design),
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
    },
  ];
  for (const run of both) {
    study.log(
      `${index}/${settings.runs} ${condition} · ${run.design}: ${run.estimatePct.toFixed(2)}% [${run.ci95Pct.map((v) => v.toFixed(2)).join(', ')}], ${run.pairs} pairs, ${run.wallS.toFixed(0)} s; ${run.interference.reason}`,
    );
  }
  return both;
}

// The load runs for the whole measurement ('load'), or starts about a quarter into the measured block and stops
// at three quarters ('steps'), which gives the estimator the kind of speed step this VM's neighbours cause. The
// warm-up ends when the server has (minWarmupS to warmupS): the timers assume its usual, shortest length.
async function underCondition<T>(
  settings: CoverageSettings,
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

/** Coverage by cell, the designs compared, the load each condition saw, example summary rows, and coverage.json. */
async function report(study: Study, reportDir: string, runs: CoverageRun[]): Promise<void> {
  const { own, server, settings } = study;
  const aaPlan = study.aaPlan;
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
  await mkdir(reportDir, { recursive: true });
  await writeFile(
    path.join(reportDir, 'coverage.json'),
    `${JSON.stringify({ workload: own.name, server: server.info, settings, cells, comparison, runs }, null, 2)}\n`,
  );
}

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
