import { runSteps, setGlobals } from '../plugins/steps.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { Arm, TpsPair } from '../stats/tps-pair.ts';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import { prepareSysbench, runSysbench } from '../workload/sysbench-runner.ts';
import type { Workload } from '../workload/workload.ts';
import { watchLogGrowth } from './log-poller.ts';

export interface MeasuredRun {
  arm: Arm;
  pair: number;
  result: SysbenchResult;
  /** Audit log bytes written during the run (plugin-on runs only). */
  logBytes: number | null;
}

export interface OverheadSample {
  runs: MeasuredRun[];
  pairs: TpsPair[];
  warmupTps: number;
  wallS: number;
}

export type Progress = (message: string) => void;

async function setArm(server: StartedServer, profile: PluginProfile, arm: Arm): Promise<void> {
  await runSteps(server, arm === 'on' ? profile.enable : profile.disable, `Turning ${profile.name} ${arm}`);
}

async function measuredRun(server: StartedServer, profile: PluginProfile, workload: Workload, arm: Arm) {
  await setArm(server, profile, arm);
  const watcher = arm === 'on' ? await watchLogGrowth(server, profile) : null;
  const run = await runSysbench(server.connection, workload);
  const logBytes = watcher ? await watcher.stop() : null;
  if (!run.ok) throw new Error(`The plugin-${arm} sysbench run is invalid: ${run.reason}`);
  return { result: run.result, logBytes };
}

/** Applies the workload's server options (restart) and the plugin's measuring settings, then loads the tables. */
export async function prepareMeasurement(server: StartedServer, profile: PluginProfile, workload: Workload, progress: Progress) {
  if (Object.keys(workload.serverOptions).length > 0) {
    await server.editConfig({ set: workload.serverOptions });
    await server.restart();
  }
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} measuring settings`);
  progress(`preparing ${workload.tables} tables × ${workload.tableSize} rows`);
  await prepareSysbench(server.connection, workload);
}

/**
 * Plugin off and on, alternating in ABBA order on the same server and data, after a discarded warm-up run
 * (sysbench 1.0 has no warm-up flag). Every run must be clean: one with errors or reconnects stops the measurement.
 */
export async function measureOverhead(
  server: StartedServer,
  profile: PluginProfile,
  workload: Workload,
  progress: Progress = () => {},
): Promise<OverheadSample> {
  const started = Date.now();
  await setArm(server, profile, 'off');
  const warmup = await runSysbench(server.connection, workload, { durationS: workload.warmupS });
  if (!warmup.ok) throw new Error(`The warm-up sysbench run is invalid: ${warmup.reason}`);
  const order = abbaOrder(workload.pairs);
  const runs: MeasuredRun[] = [];
  for (const [index, arm] of order.entries()) {
    const pair = Math.floor(index / 2) + 1;
    const left = (order.length - index) * workload.durationS;
    progress(`pair ${pair}/${workload.pairs}, plugin ${arm} (${Math.round((Date.now() - started) / 1000)} s elapsed, ~${left} s of runs left)`);
    const { result, logBytes } = await measuredRun(server, profile, workload, arm);
    runs.push({ arm, pair, result, logBytes });
    progress(`pair ${pair}/${workload.pairs}, plugin ${arm}: ${result.tps.toFixed(1)} tps`);
  }
  await setArm(server, profile, 'off');
  return { runs, pairs: toPairs(runs), warmupTps: warmup.result.tps, wallS: (Date.now() - started) / 1000 };
}

export function toPairs(runs: MeasuredRun[]): TpsPair[] {
  const pairs = new Map<number, Partial<TpsPair>>();
  for (const run of runs) {
    const pair = pairs.get(run.pair) ?? {};
    if (run.arm === 'off') pair.offTps = run.result.tps;
    else pair.onTps = run.result.tps;
    pairs.set(run.pair, pair);
  }
  return [...pairs.values()].filter((p): p is TpsPair => p.offTps !== undefined && p.onTps !== undefined);
}
