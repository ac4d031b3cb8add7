import { type Clock, realClock } from '../machine/clock.ts';
import type { EventCounts } from '../plugins/logs/event-class.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { ArmSwitch } from '../stats/segments.ts';
import type { Arm } from '../stats/tps-pair.ts';
import type { SysbenchResult } from '../workload/sysbench-result.ts';
import type { Design, SysbenchJob } from '../workload/workload.ts';
import { watchLogGrowth } from './log-poller.ts';
import { type MemorySample, sampleMemory } from './memory.ts';
import { type MeasuredSubject, realSysbench, type SysbenchRunner } from './subject.ts';

export interface ToggledRun {
  result: SysbenchResult;
  /** When each arm began, in seconds on sysbench's clock (0 = threads started). */
  schedule: ArmSwitch[];
  /** When sysbench's threads started (0 on the schedule), in ms since the epoch: places the latency slots. */
  startedAtMs: number;
  logBytes: number;
  /** Events the plugin wrote in plugin-on time, by class and user; null when it writes no parsed log. */
  onEvents: EventCounts | null;
  /** The same in plugin-off time (a gate's base arm). */
  offEvents: EventCounts | null;
  /** The server's resident memory in the middle of each segment; empty where the target cannot read it. */
  memory: MemorySample[];
}

// sysbench connects its threads before printing 'Threads started!'; on a busy 2-core machine that takes well under
// a second, so a minute means the server stopped answering.
const THREADS_START_LIMIT_MS = 60_000;

type StartOutcome = 'started' | 'exited' | 'late';

/**
 * The aligned design (Design.aligned): a switch acknowledged at most this long before a report boundary counts as
 * made on it (segments.ts, switchToleranceS). A switch is sent twice the last one's round trip plus 3 ms ahead of
 * the boundary (8 ms for the first), within 8–15 ms, so its acknowledgement lands inside the tolerance or, when the
 * server or the event loop is slow, just after the boundary, where that second is dropped as in the default design.
 */
export const SWITCH_TOLERANCE_S = 0.02;
const FIRST_LEAD_MS = 8;
const MAX_LEAD_MS = 15;

/** The segmenter's tolerance for a design: 0 unless its switches are aligned. */
export const switchToleranceFor = (design: Design): number =>
  design.kind === 'toggle' && design.aligned ? SWITCH_TOLERANCE_S : 0;

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

/**
 * One sysbench run of 2·pairs segments, the plugin switched between them in ABBA order. Each switch time is
 * taken after the server acknowledged it, so the interval holding it can be dropped precisely.
 */
export async function toggledRun(
  server: StartedServer,
  subject: MeasuredSubject,
  job: SysbenchJob,
  options: {
    design: Design & { kind: 'toggle' };
    pairs: number;
    cpus?: string;
    runner?: SysbenchRunner;
    /** When to switch, and when each switch was acknowledged: the real clock unless a test moves its own. */
    clock?: Clock;
  },
): Promise<ToggledRun> {
  const { arms } = subject;
  const { design } = options;
  const clock = options.clock ?? realClock;
  const sleepUntil = (ms: number) => clock.sleepMs(ms - clock.nowMs());
  const runner = options.runner ?? realSysbench;
  const order = abbaOrder(options.pairs);
  const segmentMs = design.segmentS * 1000;
  const setArm = (arm: Arm) => runSteps(server, arms[arm], `Turning ${subject.label} ${arm}`);
  await setArm(order[0] ?? 'off');
  const watcher = await watchLogGrowth(server, subject.log, order[0] ?? 'off');
  let started: () => void = () => {};
  const threadsStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const abort = new AbortController();
  const aligned = design.aligned === true;
  // sysbench's clock on ours: line k arrives no earlier than k seconds after its start, so the earliest
  // arrival minus k is the closest estimate (refined with every line).
  let originMs = Number.NaN;
  const onReportLine = (atS: number) => {
    const guess = clock.nowMs() - atS * 1000;
    if (!(guess >= originMs)) originMs = guess;
  };
  // Aligned, the first segment runs one second longer: its first second (threads ramping up) is dropped in every
  // design, and by the first switch a report line has placed sysbench's clock.
  const leadInMs = aligned ? 1000 : 0;
  const run = runner.run(server.connection, job, {
    durationS: leadInMs / 1000 + order.length * design.segmentS,
    onThreadsStarted: () => started(),
    ...(aligned ? { onReportLine } : {}),
    signal: abort.signal,
    latency: true,
    ...(options.cpus ? { cpus: options.cpus } : {}),
  });
  const schedule: ArmSwitch[] = [{ atS: 0, arm: order[0] ?? 'off' }];
  const acknowledgedMs: number[] = [];
  const memory: MemorySample[] = [];
  let startedAtMs = Number.NaN;
  const switching = (async (): Promise<StartOutcome> => {
    const start = await waitForThreads(threadsStarted, run, THREADS_START_LIMIT_MS);
    if (start !== 'started') {
      if (start === 'late') abort.abort(new Error('threads did not start'));
      return start;
    }
    const t0 = clock.nowMs();
    startedAtMs = t0;
    if (!(originMs <= t0)) originMs = t0;
    let leadMs = FIRST_LEAD_MS;
    for (const [index, arm] of order.entries()) {
      if (index > 0) {
        await sleepUntil((aligned ? originMs - leadMs : t0) + leadInMs + index * segmentMs);
        // ABBA repeats an arm across a pair boundary; the boundary is still recorded so segments stay paired.
        const sentMs = clock.nowMs();
        if (order[index - 1] !== arm) {
          await setArm(arm);
          leadMs = Math.min(MAX_LEAD_MS, Math.max(FIRST_LEAD_MS, 2 * (clock.nowMs() - sentMs) + 3));
        }
        const acknowledged = clock.nowMs();
        acknowledgedMs.push(acknowledged);
        schedule.push({ atS: (acknowledged - t0) / 1000, arm });
        await watcher.mark(arm);
      }
      // The server's resident memory, read in the middle of each segment, away from the switches.
      await sleepUntil(t0 + leadInMs + (index + 0.5) * segmentMs);
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
  if (aligned) {
    // Placed on sysbench's clock as finally estimated: later lines may have moved it by a few ms.
    acknowledgedMs.forEach((ms, i) => {
      const entry = schedule[i + 1];
      if (entry) entry.atS = (ms - originMs) / 1000;
    });
    startedAtMs = originMs;
  }
  return {
    result,
    schedule,
    startedAtMs,
    logBytes: log.bytes,
    onEvents: log.onEvents,
    offEvents: log.offEvents,
    memory,
  };
}
