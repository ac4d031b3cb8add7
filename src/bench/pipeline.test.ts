import { describe, expect, test } from 'vitest';
import { quietProbe, scriptedSysbench, steady, unitWorkload } from '../../test/support/scripted-sysbench.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { sql } from '../plugins/steps.ts';
import type { Workload } from '../workload/workload.ts';
import { planFor } from './measure-plan.ts';
import { calibrate, measureRun } from './pipeline.ts';

// The pipeline every caller uses, on the fake server with a scripted sysbench and a quiet machine: what it applies
// before measuring, when it stops, which verdict it gives, and when the A/A is measured again. No clock is asserted.

const workload: Workload = { ...unitWorkload, pairs: 4, maxPairs: 12 };

// A plugin the scripted sysbench can see: on and off are what the fake server was last told of `toy`.
const toy = {
  name: 'TOY',
  title: 'Toy audit',
  soname: 'toy.so',
  install: [],
  enable: [sql('SET GLOBAL toy = ON')],
  disable: [sql('SET GLOBAL toy = OFF')],
  uninstall: [],
  measureSettings: { toy_events: "'QUERY'" },
  // It counts events in a status variable, so no log file is followed.
  log: { file: null, format: null, rotation: null, countersLike: 'Toy\\_%', eventCounter: 'Toy_events' },
} as unknown as PluginProfile;

const gate = (onTps: number, limitPct: number, extra: { oneBlock?: boolean } = {}) => {
  const script = scriptedSysbench([950, 960], steady(onTps));
  const lines: string[] = [];
  const run = measureRun(script.server, toy, planFor({ workload, ...extra }), {
    limitPct,
    calibration: null,
    progress: (line) => lines.push(line),
    runner: script.runner,
    probe: quietProbe(),
  });
  return { ...script, lines, run };
};

describe('measureRun', () => {
  test("applies the run's measuring settings before the warm-up", async () => {
    const { server, run } = gate(700, 10);
    await run;
    const statements = server.lines();
    const settings = statements.findIndex((l) => l.includes("SET GLOBAL toy_events = 'QUERY'"));
    const firstArm = statements.findIndex((l) => l.includes('SET GLOBAL toy = '));
    expect(settings).toBeGreaterThanOrEqual(0);
    expect(settings).toBeLessThan(firstArm);
  });

  test('a clear excess over the limit fails after the first block, and says so', async () => {
    const { run, lines } = gate(700, 10);
    const m = await run;
    expect([m.verdict, m.pairs]).toEqual(['fail', workload.pairs]);
    expect(m.overheadPct).toBeCloseTo(30, 0);
    expect(lines.some((l) => l.startsWith('fail: '))).toBe(true);
  });

  test('a cost clearly under the limit passes after the first block', async () => {
    const m = await gate(980, 30).run;
    expect([m.verdict, m.pairs]).toEqual(['pass', workload.pairs]);
  });

  test('a cost at the limit measures up to maxPairs and stays inconclusive', async () => {
    const m = await gate(900, 10).run;
    expect([m.verdict, m.pairs]).toEqual(['inconclusive', workload.maxPairs]);
  });

  test('one-block mode stops after one block even when undecided', async () => {
    const m = await gate(900, 10, { oneBlock: true }).run;
    expect(m.pairs).toBe(workload.pairs);
  });
});

describe('calibrate', () => {
  // Every run reads 'off' (both A/A arms run DO 0); the n-th run of an attempt falls in the on half of ABBA when
  // n mod 4 is 2 or 3. `biased` lowers those for the first `biasedRuns` runs only.
  const aa = (biasedRuns: number) => (_arm: 'off' | 'on', n: number) => {
    const onHalf = n % 4 === 2 || n % 4 === 3;
    const base = 1000 + (n % 2 === 0 ? 3 : -3);
    return onHalf && n <= biasedRuns ? base - 100 : base;
  };
  const calibrated = async (biasedRuns: number) => {
    const { server, runner, calls } = scriptedSysbench([950, 960, 950, 960], aa(biasedRuns));
    const lines: string[] = [];
    const c = await calibrate(server, planFor({ workload }), {
      progress: (l) => lines.push(l),
      runner,
      probe: quietProbe(),
    });
    return { c, lines, measured: calls.filter((x) => !x.startsWith('warm-up')).length };
  };

  test('an A/A whose interval holds 0 is measured once', async () => {
    const { c, lines, measured } = await calibrated(0);
    expect(c.containsZero).toBe(true);
    expect(measured).toBe(2 * workload.pairs);
    expect(lines.filter((l) => /^A\/A \d: /.test(l))).toHaveLength(1);
  });

  test('a first A/A that misses 0 is measured again, and the second stands', async () => {
    const { c, lines, measured } = await calibrated(2 * workload.pairs);
    expect(lines.find((l) => l.startsWith('A/A 1: '))).toMatch(/^A\/A 1: -?\d/);
    expect(measured).toBe(4 * workload.pairs);
    expect(c.containsZero).toBe(true);
  });

  test('two misses: the second is returned, and it misses', async () => {
    const { c, measured } = await calibrated(4 * workload.pairs);
    expect(measured).toBe(4 * workload.pairs);
    expect(c.containsZero).toBe(false);
  });
});
