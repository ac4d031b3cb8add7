import { describe, expect, test } from 'vitest';
import {
  fakeClock,
  quietProbe,
  scriptedSysbench,
  steady,
  unitWorkload,
} from '../../test/support/scripted-sysbench.ts';
import { sql } from '../plugins/steps.ts';
import type { Workload } from '../workload/workload.ts';
import { measureOverhead } from './measure-overhead.ts';
import { planFor } from './measure-plan.ts';
import type { MeasuredSubject, SysbenchRunner } from './subject.ts';

// The measurement loop on the fake server with a scripted sysbench: which runs it asks for, in what order, and
// when it stops. No clock is asserted on; the budget is set so that the rule decides, not the machine's speed.

const workload: Workload = unitWorkload;

const subject: MeasuredSubject = {
  label: 'toy',
  arms: { off: [sql('SET GLOBAL toy = OFF')], on: [sql('SET GLOBAL toy = ON')] },
  log: null,
};

describe('warm-up', () => {
  test('chunks run until two in a row agree, then the blocks start', async () => {
    const { server, runner, calls } = scriptedSysbench([400, 800, 950, 960], steady(1000));
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: null,
      runner,
      probe: quietProbe(),
    });
    expect(calls.slice(0, 5)).toEqual([
      'warm-up 5 s',
      'warm-up 5 s',
      'warm-up 5 s',
      'warm-up 5 s',
      'off 10 s',
    ]);
    expect(sample.warmupTps).toBe(960);
  });

  test('chunks that never agree stop at warmupS', async () => {
    const { server, runner, calls } = scriptedSysbench(
      [100, 300, 500, 700, 900, 1100, 1300, 1500, 1700],
      steady(1000),
    );
    await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: null,
      runner,
      probe: quietProbe(),
    });
    expect(calls.filter((c) => c.startsWith('warm-up'))).toHaveLength(8);
  });

  test("a short minimum warm-up (quick's 6 s) runs chunks of half of it, so two can agree by then", async () => {
    const { server, runner, calls } = scriptedSysbench([950, 960], steady(1000));
    const short = { ...workload, minWarmupS: 6 };
    await measureOverhead(server, subject, planFor({ workload: short }), {
      limitPct: null,
      runner,
      probe: quietProbe(),
    });
    expect(calls.slice(0, 3)).toEqual(['warm-up 3 s', 'warm-up 3 s', 'off 10 s']);
  });

  test('a warm-up that cannot end early is one run of warmupS', async () => {
    const { server, runner, calls } = scriptedSysbench([900], steady(1000));
    const fixed = { ...workload, minWarmupS: 40 };
    await measureOverhead(server, subject, planFor({ workload: fixed }), {
      limitPct: null,
      runner,
      probe: quietProbe(),
    });
    expect(calls[0]).toBe('warm-up 40 s');
    expect(calls[1]).toBe('off 10 s');
  });
});

describe('blocks', () => {
  test('one-block mode (no limit) runs one block of `pairs` pairs in ABBA order and stops', async () => {
    const { server, runner, calls } = scriptedSysbench([950, 960], steady(1000));
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: null,
      runner,
      probe: quietProbe(),
    });
    expect(calls.slice(2)).toEqual(['off 10 s', 'on 10 s', 'on 10 s', 'off 10 s']);
    expect([sample.stoppedBecause, sample.blocks.length, sample.pairs.length]).toEqual(['fixed', 1, 2]);
    // The plugin is off again after the block.
    expect(server.lines().at(-1)).toContain('SET GLOBAL toy = OFF');
  });

  test('a clear excess is decisive after the first block', async () => {
    const { server, runner } = scriptedSysbench([950, 960], steady(500));
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: 10,
      runner,
      probe: quietProbe(),
    });
    expect([sample.stoppedBecause, sample.blocks.length]).toEqual(['decisive', 1]);
  });

  test('an undecided overhead adds blocks until maxPairs, then stops on the budget', async () => {
    // 10% measured against a 10% limit: never clear of it.
    const { server, runner } = scriptedSysbench([950, 960], steady(900));
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: 10,
      runner,
      probe: quietProbe(),
    });
    expect(sample.stoppedBecause).toBe('budget');
    expect(sample.pairs).toHaveLength(workload.maxPairs);
    expect(sample.blocks.length).toBeGreaterThan(1);
  });

  test("the budget's last seconds get a shorter block: 6 pairs, then 5 of the next 6 that fit", async () => {
    // The injected clock moves by each sysbench run's own length: a warm-up of 10 s, then pairs of two 10 s runs.
    const clock = fakeClock();
    const { server, runner } = scriptedSysbench([950, 960], steady(900));
    const timed: SysbenchRunner = {
      ...runner,
      run: async (conn, job, opts) => {
        const answer = await runner.run(conn, job, opts);
        clock.advanceMs(opts.durationS * 1000);
        return answer;
      },
    };
    const sized = { ...workload, pairs: 6, maxPairs: 24, budgetS: 230 };
    const sample = await measureOverhead(server, subject, planFor({ workload: sized }), {
      limitPct: 10,
      runner: timed,
      probe: quietProbe(),
      clock,
    });
    expect(sample.blocks.map((b) => b.pairs.length)).toEqual([6, 5]);
    expect(sample.stoppedBecause).toBe('budget');
    // Two warm-up chunks of 5 s, then 12 and 10 runs of 10 s: the wall time is the clock's, to the second.
    expect(sample.wallS).toBe(230);
  });

  test('a budget with no room for another pair (20 s) stops after the first block', async () => {
    const { server, runner } = scriptedSysbench([950, 960], steady(900));
    const tight = { ...workload, budgetS: 15 };
    const sample = await measureOverhead(server, subject, planFor({ workload: tight }), {
      limitPct: 10,
      runner,
      probe: quietProbe(),
    });
    expect([sample.stoppedBecause, sample.blocks.length]).toEqual(['budget', 1]);
  });
});

describe('interference', () => {
  test('under the retry policy a disturbed block is measured again, and the second is kept', async () => {
    const { server, runner, calls } = scriptedSysbench([950, 960], steady(1000));
    const probe = quietProbe([90, 0]);
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: null,
      runner,
      probe,
      interference: 'retry',
    });
    expect(calls.filter((c) => !c.startsWith('warm-up'))).toHaveLength(8);
    expect(sample.blocks[0]?.interference?.retries).toBe(1);
  });

  test('under warn a disturbed block is kept and marked', async () => {
    const { server, runner, calls } = scriptedSysbench([950, 960], steady(1000));
    const sample = await measureOverhead(server, subject, planFor({ workload: workload }), {
      limitPct: null,
      runner,
      probe: quietProbe([90]),
      interference: 'warn',
    });
    expect(calls.filter((c) => !c.startsWith('warm-up'))).toHaveLength(4);
    expect(sample.blocks[0]?.interference?.otherCpuPct).toBe(90);
  });
});

test('a toggled plan for arms that restart the server is refused before anything runs: planFor was not told the arms', async () => {
  const { server, runner, calls } = scriptedSysbench([950, 960], steady(1000));
  const restarting: MeasuredSubject = {
    ...subject,
    arms: { off: [{ kind: 'restart' }], on: subject.arms.on },
  };
  const toggled = planFor({ workload: { ...workload, design: { kind: 'toggle', segmentS: 2 } } });
  await expect(
    measureOverhead(server, restarting, toggled, { limitPct: null, runner, probe: quietProbe() }),
  ).rejects.toThrow(/cannot be toggled inside one run: plan with planFor\(\{ arms \}\)/);
  expect(calls).toEqual([]);
});
