import type { SysbenchRunner } from '../../src/bench/subject.ts';
import type { BlockInterference } from '../../src/machine/block-interference.ts';
import type { Clock } from '../../src/machine/clock.ts';
import type { Probe } from '../../src/machine/sampled-block.ts';
import type { RunOptions } from '../../src/workload/sysbench-runner.ts';
import type { Workload } from '../../src/workload/workload.ts';
import { createFakeServer, type FakeScript } from './fake-server.ts';
import { sysbenchResult as result } from './sysbench-result.ts';

// The measurement loop's seams for unit tests: a scripted sysbench on the fake server, and a machine probe that
// reports a quiet machine and a clock that stands still. No test asserts on time.

/**
 * A sysbench whose warm-up chunks answer `warmup` in turn and whose measured runs answer `tps(arm, n)` for the n-th
 * run of that arm; it records every call. The arm is what the fake server was last told (SET GLOBAL toy = …).
 * `script` sets the rest of the fake server (its flavor, its plugin files); its rules come after the arm's. A run
 * of `measuredS` (the plan's durationS; the job does not carry it) is measured, any other a warm-up chunk.
 */
export function scriptedSysbench(
  warmup: number[],
  tps: (arm: 'off' | 'on', n: number) => number,
  script: FakeScript = {},
  measuredS: number = unitWorkload.durationS,
) {
  const calls: string[] = [];
  let arm: 'off' | 'on' = 'off';
  const counts = { off: 0, on: 0 };
  const server = createFakeServer({
    ...script,
    rules: [
      {
        match: /SET GLOBAL toy = (ON|OFF)/,
        reply: ({ match }) => {
          arm = match?.[1] === 'ON' ? 'on' : 'off';
          return {};
        },
      },
      ...(script.rules ?? []),
    ],
  });
  const runner: SysbenchRunner = {
    prepare: async () => {},
    run: async (_conn, _job, opts: RunOptions) => {
      const { durationS } = opts;
      // A warm-up chunk is 5 s (half the minimum when that is shorter), or the whole warm-up when it is fixed.
      if (durationS !== measuredS) {
        calls.push(`warm-up ${durationS} s`);
        const next = warmup[calls.filter((c) => c.startsWith('warm-up')).length - 1];
        return { ok: true, result: result(next ?? 1000, durationS) };
      }
      counts[arm] += 1;
      calls.push(`${arm} ${durationS} s`);
      return { ok: true, result: result(tps(arm, counts[arm]), durationS) };
    },
  };
  return { server, runner, calls };
}

export const quietProbe = (otherCpuPct: number[] = []): Probe & { blocks: number } => {
  const probe = {
    blocks: 0,
    start: async () => ({
      stop: async (retries: number): Promise<BlockInterference> => {
        const other = otherCpuPct[probe.blocks] ?? 0;
        probe.blocks += 1;
        return {
          sampledS: 1,
          samples: 1,
          otherCpuPct: other,
          otherCpuMaxPct: other,
          kernelCpuPct: 0,
          selfCpuPct: 0,
          measuredCpuPct: 100,
          stealPct: 0,
          load1Mean: 1,
          load1Max: 1,
          topOthers: [],
          retries,
        } as BlockInterference;
      },
    }),
    waitUntilQuiet: async () => true,
    nowMs: () => 0,
  };
  return probe;
};

/**
 * A clock that moves only when told: `advanceMs` moves it, and a sleep moves it to the sleep's end and resolves at
 * once, so a loop that waits on it runs in no real time and reads exact instants.
 */
export const fakeClock = (
  startMs = 1_000_000,
): Clock & { advanceMs(ms: number): void; sleptMs: number[] } => {
  let nowMs = startMs;
  const sleptMs: number[] = [];
  return {
    nowMs: () => nowMs,
    sleepMs: async (ms) => {
      sleptMs.push(Math.max(0, ms));
      nowMs += Math.max(0, ms);
    },
    advanceMs: (ms) => {
      nowMs += ms;
    },
    sleptMs,
  };
};

// Off runs near 1000 TPS and on runs near `onTps`, with a little spread so every interval has a width.
export const steady =
  (onTps: number) =>
  (arm: 'off' | 'on', n: number): number =>
    (arm === 'off' ? 1000 : onTps) + (n % 2 === 0 ? 3 : -3);

/** A workload the scripted sysbench runs: separate runs of 10 s, a warm-up of 10–40 s, 2 pairs a block up to 8. */
export const unitWorkload: Workload = {
  name: 'unit',
  test: 'oltp_read_write',
  tables: 1,
  tableSize: 100,
  threads: 1,
  design: { kind: 'runs' },
  durationS: 10,
  warmupS: 40,
  minWarmupS: 10,
  pairs: 2,
  maxPairs: 8,
  budgetS: 10_000,
  targetHalfWidthPct: null,
  runToRunSdLog: 0,
  gate: { budgetS: 10_000, targetHalfWidthPct: null },
  pinCpus: false,
  maxIgnoredErrorPct: 0,
  serverOptions: {},
};
