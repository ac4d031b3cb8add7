import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { ArmSwitch } from '../stats/segments.ts';
import type { Arm } from '../stats/tps-pair.ts';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import { runSysbench } from '../workload/sysbench-runner.ts';
import type { Workload } from '../workload/workload.ts';
import { watchLogGrowth } from './log-poller.ts';

/** What turning an arm on means: the plugin's enable steps, or for A/A its disable steps again. */
export interface ArmSteps {
  off: PluginProfile['disable'];
  on: PluginProfile['enable'];
}

export interface ToggledRun {
  result: SysbenchResult;
  /** When each arm began, in seconds on sysbench's clock (0 = threads started). */
  schedule: ArmSwitch[];
  logBytes: number;
}

const sleepUntil = (ms: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

/**
 * One sysbench run of 2·pairs segments, the plugin switched between them in ABBA order. Each switch time is
 * taken after the server acknowledged it, so the interval holding it can be dropped precisely.
 */
export async function toggledRun(
  server: StartedServer,
  profile: PluginProfile,
  workload: Workload & { design: { kind: 'toggle' } },
  arms: ArmSteps,
  options: { pairs: number; cpus?: string },
): Promise<ToggledRun> {
  const order = abbaOrder(options.pairs);
  const segmentMs = workload.design.segmentS * 1000;
  const setArm = (arm: Arm) => runSteps(server, arms[arm], `Turning ${profile.name} ${arm}`);
  await setArm(order[0] ?? 'off');
  const watcher = await watchLogGrowth(server, profile);
  let started: () => void = () => {};
  const threadsStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const run = runSysbench(server.connection, workload, {
    durationS: order.length * workload.design.segmentS,
    onThreadsStarted: () => started(),
    ...(options.cpus ? { cpus: options.cpus } : {}),
  });
  const schedule: ArmSwitch[] = [{ atS: 0, arm: order[0] ?? 'off' }];
  const switching = (async () => {
    await threadsStarted;
    const t0 = Date.now();
    for (const [index, arm] of order.entries()) {
      if (index === 0) continue;
      await sleepUntil(t0 + index * segmentMs);
      // ABBA repeats an arm across a pair boundary; the boundary is still recorded so segments stay paired.
      if (order[index - 1] !== arm) await setArm(arm);
      schedule.push({ atS: (Date.now() - t0) / 1000, arm });
    }
  })();
  const outcome = await run;
  await switching;
  const logBytes = await watcher.stop();
  await setArm('off');
  if (!outcome.ok) throw new Error(`The toggled sysbench run is invalid: ${outcome.reason}`);
  return { result: outcome.result, schedule, logBytes };
}
