import type { EventCounts } from '../plugins/logs/event-class.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { ArmSwitch } from '../stats/segments.ts';
import type { Arm } from '../stats/tps-pair.ts';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import type { Workload } from '../workload/workload.ts';
import { watchLogGrowth } from './log-poller.ts';
import { type MemorySample, sampleMemory } from './memory.ts';
import { type MeasuredSubject, realSysbench, type SysbenchRunner } from './subject.ts';

/** What turning an arm on means: the plugin's enable steps, or for A/A its disable steps again. */
export interface ArmSteps {
  off: PluginProfile['disable'];
  on: PluginProfile['enable'];
}

export interface ToggledRun {
  result: SysbenchResult;
  /** When each arm began, in seconds on sysbench's clock (0 = threads started). */
  schedule: ArmSwitch[];
  /** When sysbench's threads started (0 on the schedule), in ms since the epoch: places the latency slots. */
  startedAtMs: number;
  logBytes: number;
  /** Events the plugin wrote in plugin-on time, by class and user; null when it writes no parsed log. */
  onEvents: EventCounts | null;
  /** The server's resident memory in the middle of each segment; empty where the target cannot read it. */
  memory: MemorySample[];
}

// sysbench connects its threads before printing 'Threads started!'; on a busy 2-core machine that takes well under
// a second, so a minute means the server stopped answering.
const THREADS_START_LIMIT_MS = 60_000;

type StartOutcome = 'started' | 'exited' | 'late';

/** Waits for sysbench's threads to start, for sysbench to exit first, or for the limit: never unbounded. */
async function waitForThreads(
  started: Promise<void>,
  run: Promise<unknown>,
  limitMs: number,
): Promise<StartOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StartOutcome>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs);
  });
  try {
    return await Promise.race([
      started.then((): StartOutcome => 'started'),
      run.then(
        (): StartOutcome => 'exited',
        (): StartOutcome => 'exited',
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const sleepUntil = (ms: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

/**
 * One sysbench run of 2·pairs segments, the plugin switched between them in ABBA order. Each switch time is
 * taken after the server acknowledged it, so the interval holding it can be dropped precisely.
 */
export async function toggledRun(
  server: StartedServer,
  subject: MeasuredSubject,
  workload: Workload & { design: { kind: 'toggle' } },
  options: { pairs: number; cpus?: string; runner?: SysbenchRunner },
): Promise<ToggledRun> {
  const { arms } = subject;
  const runner = options.runner ?? realSysbench;
  const order = abbaOrder(options.pairs);
  const segmentMs = workload.design.segmentS * 1000;
  const setArm = (arm: Arm) => runSteps(server, arms[arm], `Turning ${subject.label} ${arm}`);
  await setArm(order[0] ?? 'off');
  const watcher = await watchLogGrowth(server, subject.log, order[0] ?? 'off');
  let started: () => void = () => {};
  const threadsStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const abort = new AbortController();
  const run = runner.run(server.connection, workload, {
    durationS: order.length * workload.design.segmentS,
    onThreadsStarted: () => started(),
    signal: abort.signal,
    latency: true,
    ...(options.cpus ? { cpus: options.cpus } : {}),
  });
  const schedule: ArmSwitch[] = [{ atS: 0, arm: order[0] ?? 'off' }];
  const memory: MemorySample[] = [];
  let startedAtMs = Number.NaN;
  const switching = (async (): Promise<StartOutcome> => {
    const start = await waitForThreads(threadsStarted, run, THREADS_START_LIMIT_MS);
    if (start !== 'started') {
      if (start === 'late') abort.abort(new Error('threads did not start'));
      return start;
    }
    const t0 = Date.now();
    startedAtMs = t0;
    for (const [index, arm] of order.entries()) {
      if (index > 0) {
        await sleepUntil(t0 + index * segmentMs);
        // ABBA repeats an arm across a pair boundary; the boundary is still recorded so segments stay paired.
        if (order[index - 1] !== arm) await setArm(arm);
        schedule.push({ atS: (Date.now() - t0) / 1000, arm });
        await watcher.mark(arm);
      }
      // The server's resident memory, read in the middle of each segment, away from the switches.
      await sleepUntil(t0 + (index + 0.5) * segmentMs);
      await sampleMemory(server, arm, memory);
    }
    return 'started';
  })();
  const [outcome, start] = await Promise.allSettled([run, switching]);
  const log = await watcher.stop();
  await setArm('off');
  if (start.status === 'rejected') throw start.reason;
  if (start.value === 'late') {
    throw new Error(
      `sysbench did not print 'Threads started!' within ${THREADS_START_LIMIT_MS / 1000} s of launching and was stopped: check that the server at ${server.connection.host}:${server.connection.port} answers and is not overloaded`,
      { cause: outcome.status === 'rejected' ? outcome.reason : undefined },
    );
  }
  if (outcome.status === 'rejected') throw outcome.reason;
  if (!outcome.value.ok) {
    const when = start.value === 'exited' ? ' (sysbench exited before its threads started)' : '';
    throw new Error(`The toggled sysbench run is invalid${when}: ${outcome.value.reason}`);
  }
  if (start.value === 'exited') {
    throw new Error(
      "sysbench exited without printing 'Threads started!': its output did not have the expected form",
    );
  }
  const result = outcome.value.result;
  return { result, schedule, startedAtMs, logBytes: log.bytes, onEvents: log.onEvents, memory };
}
