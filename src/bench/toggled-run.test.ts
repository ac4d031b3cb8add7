import { execaSync } from 'execa';
import { expect, test, vi } from 'vitest';
import { createFakeServer } from '../../test/support/fake-server.ts';
import { fakeClock } from '../../test/support/scripted-sysbench.ts';
import { sysbenchResult as result } from '../../test/support/sysbench-result.ts';
import { sql } from '../plugins/steps.ts';
import { serverAudit } from '../profiles/server-audit.ts';
import { freePort } from '../servers/free-port.ts';
import { type ArmSwitch, segmentToggledRun } from '../stats/segments.ts';
import type { RunOptions } from '../workload/sysbench-runner.ts';
import { workloads } from '../workload/workloads.ts';
import type { MeasuredSubject, SysbenchRunner } from './subject.ts';
import { SWITCH_TOLERANCE_S, switchToleranceFor, toggledRun } from './toggled-run.ts';

const hasSysbench = execaSync('sysbench', ['--version'], { reject: false }).exitCode === 0;
const smoke = workloads.smoke;

// A real sysbench against a port nobody listens on exits at once, before 'Threads started!'.
test.skipIf(!hasSysbench)(
  'a sysbench that exits before its threads start fails within seconds, saying why',
  async () => {
    const fake = createFakeServer();
    const server = { ...fake, connection: { ...fake.connection, port: await freePort() } };
    const started = Date.now();
    const error = await toggledRun(
      server,
      { label: 'server_audit', arms: { off: [], on: [] }, log: serverAudit },
      smoke,
      {
        design: { kind: 'toggle', segmentS: 2, aligned: true },
        pairs: 2,
      },
    ).then(
      () => new Error('the run succeeded'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/sysbench exited before its threads started/);
    expect(error.message).toMatch(/Can't connect|unable to connect/);
    expect(Date.now() - started).toBeLessThan(10_000);
  },
);

/**
 * Runs `work` with Date and timers faked, moving them on until nothing is left to wait for: the scripted sysbench's
 * seconds and the run's switches then fall on exact instants in no real time, whatever else the machine is doing
 * (with real timers, a busy worker once made a switch miss its 20 ms by a few ms).
 */
async function onFakeTimers<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    const running = work();
    await vi.runAllTimersAsync();
    return await running;
  } finally {
    vi.useRealTimers();
  }
}

// A scripted sysbench whose clock starts at `origin`: 'Threads started!' is seen `startLateMs` after it (as when
// Node is slow to read the pipe), each `[ k s ]` line 1 ms after second k; the fake server records when each
// SET arrived, on that clock.
function clockedSysbench(startLateMs: number) {
  const arrivals: { atS: number; sql: string }[] = [];
  let origin = 0;
  const server = createFakeServer({
    rules: [
      {
        match: /SET GLOBAL toy = (ON|OFF)/,
        reply: ({ sql: text }) => {
          arrivals.push({ atS: (Date.now() - origin) / 1000, sql: text });
          return {};
        },
      },
    ],
  });
  const runner: SysbenchRunner = {
    prepare: async () => {},
    run: async (_conn, _w, opts: RunOptions) => {
      const { durationS } = opts;
      origin = Date.now();
      const timers = [setTimeout(() => opts.onThreadsStarted?.(), startLateMs)];
      for (let k = 1; k <= durationS; k++)
        timers.push(setTimeout(() => opts.onReportLine?.(k, `[ ${k}s ]`), k * 1000 + 1));
      await new Promise((resolve) => setTimeout(resolve, durationS * 1000 + 20));
      for (const timer of timers) clearTimeout(timer);
      const intervals = Array.from({ length: durationS }, (_, i) => ({
        atS: i + 1,
        threads: 4,
        tps: 800,
        qps: 0,
        latencyP95Ms: 1,
        errorsPerS: 0,
        reconnectsPerS: 0,
      }));
      return { ok: true, result: { ...result(800, durationS), intervals } };
    },
  };
  return { server, runner, arrivals };
}

const toy: MeasuredSubject = {
  label: 'toy',
  arms: { off: [sql('SET GLOBAL toy = OFF')], on: [sql('SET GLOBAL toy = ON')] },
  log: null,
};

test('aligned: a late "Threads started!" is corrected by the report lines, and each switch lands just before its boundary', async () => {
  const { server, runner, arrivals } = clockedSysbench(40);
  const aligned = { kind: 'toggle' as const, segmentS: 1, aligned: true };
  const run = await onFakeTimers(() => toggledRun(server, toy, smoke, { design: aligned, pairs: 1, runner }));
  // One lead-in second, then off | on: the switch belongs on boundary 2 of sysbench's clock.
  expect(run.schedule.map((s) => s.arm)).toEqual(['off', 'on']);
  // Placed from the report lines (line 1 came 1 ms after second 1), the switch is sent 8 ms ahead of boundary 2;
  // from 'Threads started!' alone it would have come 32 ms after it.
  const switchAtS = run.schedule[1]?.atS ?? 0;
  expect(switchAtS).toBeCloseTo(1.992, 6);
  expect(switchAtS).toBeGreaterThan(2 - SWITCH_TOLERANCE_S);
  const on = arrivals.find((a) => a.sql.includes('ON'));
  expect(on?.atS).toBeCloseTo(1.993, 6);
  // Segmented with the tolerance, no second but the ramp-up is dropped (and the switch's, had a timer been late).
  const segmented = segmentToggledRun(
    run.result.intervals,
    [run.schedule[0] as ArmSwitch, ...run.schedule.slice(1)],
    {
      switchToleranceS: switchToleranceFor(aligned),
    },
  );
  expect(segmented.droppedIntervals).toBe(switchAtS <= 2 ? 1 : 2);
  expect(segmented.pairs).toHaveLength(1);
});

test('not aligned (the default): switches follow "Threads started!" and no report line is asked for', async () => {
  const { server, runner } = clockedSysbench(0);
  const seen: string[] = [];
  const watching: SysbenchRunner = {
    ...runner,
    run: (conn, w, opts) => {
      if (opts?.onReportLine) seen.push('onReportLine');
      return runner.run(conn, w, opts);
    },
  };
  const oneS = { kind: 'toggle' as const, segmentS: 1 };
  const run = await onFakeTimers(() =>
    toggledRun(server, toy, smoke, { design: oneS, pairs: 1, runner: watching }),
  );
  expect(seen).toEqual([]);
  expect(run.result.durationS).toBe(2);
  expect(switchToleranceFor(oneS)).toBe(0);
});

test('on an injected clock each switch is timed to its segment boundary exactly, in no real time', async () => {
  const clock = fakeClock();
  const server = createFakeServer({ rules: [{ match: /SET GLOBAL toy = (ON|OFF)/, reply: () => ({}) }] });
  const runner: SysbenchRunner = {
    prepare: async () => {},
    run: async (_conn, _job, opts: RunOptions) => {
      opts.onThreadsStarted?.();
      return { ok: true, result: result(800, opts.durationS) };
    },
  };
  const started = clock.nowMs();
  const design = { kind: 'toggle' as const, segmentS: 2 };
  const run = await toggledRun(server, toy, smoke, { design, pairs: 2, runner, clock });
  expect(run.startedAtMs).toBe(started);
  expect(run.schedule).toEqual([
    { atS: 0, arm: 'off' },
    { atS: 2, arm: 'on' },
    { atS: 4, arm: 'on' },
    { atS: 6, arm: 'off' },
  ]);
  // Every wait went to the clock: the boundaries, and the middle of each segment where memory is read.
  expect(clock.nowMs() - started).toBe(7_000);
});
