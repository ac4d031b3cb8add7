import { describe, expect, test } from 'vitest';
import { unitWorkload } from '../../test/support/scripted-sysbench.ts';
import { sql } from '../plugins/steps.ts';
import type { Workload } from '../workload/workload.ts';
import { getWorkload, workloads } from '../workload/workloads.ts';
import { planFor } from './measure-plan.ts';

const live = { off: [sql('SET GLOBAL toy = OFF')], on: [sql('SET GLOBAL toy = ON')] };
const restarting = { off: [{ kind: 'restart' as const }], on: live.on };

describe('the job', () => {
  test('is what sysbench runs and nothing of the plan', () => {
    const { job } = planFor({ workload: workloads.smoke });
    expect(job).toEqual({
      name: 'smoke',
      test: 'oltp_read_write',
      tables: 4,
      tableSize: 10_000,
      threads: 4,
      maxIgnoredErrorPct: 0.5,
      serverOptions: { innodb_flush_log_at_trx_commit: '0' },
    });
  });

  test('a point sets its threads, the traffic its script and plain statements, the open loop its rate', () => {
    const { job, plan } = planFor({
      workload: workloads.smoke,
      point: { threads: 16, cores: 'all' },
      traffic: { script: '/etc/dba/mix.lua', preparedStatements: false },
      ratePerS: 700,
    });
    expect(job).toMatchObject({
      threads: 16,
      script: '/etc/dba/mix.lua',
      preparedStatements: false,
      rate: 700,
    });
    expect([plan.pinCpus, workloads.smoke.pinCpus]).toEqual([false, true]);
    expect(planFor({ workload: workloads.smoke, point: { threads: 4, cores: 'pinned' } }).plan.pinCpus).toBe(
      true,
    );
  });

  test('traffic without a script and with prepared statements leaves the preset as it is', () => {
    const { job } = planFor({
      workload: workloads.smoke,
      traffic: { script: null, preparedStatements: true },
    });
    expect(job).toEqual(planFor({ workload: workloads.smoke }).job);
  });
});

describe('the plan', () => {
  test("is the preset's when nothing else is asked for", () => {
    const { plan } = planFor({ workload: workloads.standard });
    const { design, durationS, pairs, maxPairs, budgetS, targetHalfWidthPct, runToRunSdLog } =
      workloads.standard;
    expect(plan).toMatchObject({
      design,
      durationS,
      pairs,
      maxPairs,
      budgetS,
      targetHalfWidthPct,
      runToRunSdLog,
    });
  });

  test("a gate's budget grows by what the bank holds, at most twice the workload's", () => {
    expect(planFor({ workload: workloads.standard, bankedS: 30 }).plan.budgetS).toBe(100);
    expect(planFor({ workload: workloads.standard, bankedS: 500 }).plan.budgetS).toBe(140);
    // A workload that stops at its verdict does not bank.
    expect(planFor({ workload: workloads.smoke, bankedS: 30 }).plan.budgetS).toBe(150);
  });

  test('one block: at most its pairs', () => {
    const { plan } = planFor({ workload: workloads.smoke, oneBlock: true });
    expect([plan.pairs, plan.maxPairs]).toEqual([12, 12]);
  });

  test("a matrix cell measures one block of half the workload: 6 of smoke's 12 pairs, never fewer than 4", () => {
    const smoke = planFor({ workload: getWorkload('smoke'), cell: true }).plan;
    expect([smoke.pairs, smoke.maxPairs]).toEqual([6, 6]);
    expect(smoke.design).toEqual(getWorkload('smoke').design);
    expect(planFor({ workload: getWorkload('quick'), cell: true }).plan.pairs).toBe(4);
    const twenty = { ...getWorkload('standard'), pairs: 20 };
    expect(planFor({ workload: twenty, cell: true }).plan.pairs).toBe(10);
  });

  test('the precision suites re-cut the segments', () => {
    expect(planFor({ workload: workloads.smoke, segments: 'dropped' }).plan).toMatchObject({
      design: { kind: 'toggle', segmentS: 3 },
      pairs: 8,
      maxPairs: 24,
    });
    expect(() => planFor({ workload: workloads.seed, segments: 'aligned' })).toThrow(/does not toggle/);
  });
});

describe('a comparison of base and head', () => {
  test("standard's gate measures up to 240 s, until ±1.0 pp in its own run; what sysbench runs is the bench's", () => {
    const gated = planFor({ workload: workloads.standard, comparison: 'toggle' });
    expect(gated.plan).toMatchObject({
      budgetS: 240,
      targetHalfWidthPct: 1,
      pairs: workloads.standard.pairs,
    });
    expect(gated.job).toEqual(planFor({ workload: workloads.standard }).job);
  });
  test("smoke's gate stops at the verdict, within 150 s, as CI wants", () => {
    const { plan } = planFor({ workload: workloads.smoke, comparison: 'toggle' });
    expect(plan).toMatchObject({ budgetS: 150, targetHalfWidthPct: null });
  });
  test('the restarts design keeps blocks of at most 3 pairs', () => {
    const { plan } = planFor({ workload: workloads.standard, comparison: 'restarts' });
    expect(plan).toMatchObject({ pairs: 3, budgetS: 240 });
  });
  test('the reconnect design is separate runs (each reconnects) of at most 3 pairs', () => {
    const { plan } = planFor({ workload: workloads.standard, comparison: 'reconnect' });
    expect(plan).toMatchObject({ pairs: 3, design: { kind: 'runs' } });
  });
});

describe('the arms', () => {
  const toggle: Workload = { ...unitWorkload, design: { kind: 'toggle', segmentS: 3 } };
  test('arms of plain statements keep the toggle design', () => {
    expect(planFor({ workload: toggle, arms: live }).plan.design).toEqual({ kind: 'toggle', segmentS: 3 });
  });
  test('a restart in an arm means separate runs', () => {
    const arms = { off: [sql('UNINSTALL PLUGIN toy'), { kind: 'restart' as const }], on: live.on };
    expect(planFor({ workload: toggle, arms }).plan.design).toEqual({ kind: 'runs' });
  });
  test("separate runs keep about the toggled block's measuring time, with at least 4 pairs", () => {
    const smokeLike: Workload = {
      ...unitWorkload,
      design: { kind: 'toggle', segmentS: 2, aligned: true },
      durationS: 10,
      pairs: 12,
    };
    const pairs = (workload: Workload) => planFor({ workload, arms: restarting }).plan.pairs;
    // 12 pairs of 2 s segments are 48 s: about 2 pairs of 10 s runs, so the floor of 4.
    expect(pairs(smokeLike)).toBe(4);
    // 30 pairs of 2 s are 120 s: 6 pairs of 10 s runs.
    expect(pairs({ ...smokeLike, pairs: 30 })).toBe(6);
    // Never more than the toggled count.
    expect(pairs({ ...smokeLike, pairs: 3, durationS: 1 })).toBe(3);
  });
  test('a runs plan stays as it is', () => {
    expect(planFor({ workload: unitWorkload, arms: restarting }).plan).toEqual(
      planFor({ workload: unitWorkload }).plan,
    );
  });
  test('one block is sized before the arms: a cell of restarts keeps its cap of the toggled pairs', () => {
    const { plan } = planFor({ workload: workloads.smoke, cell: true, oneBlock: true, arms: restarting });
    expect([plan.design.kind, plan.pairs, plan.maxPairs]).toEqual(['runs', 4, 6]);
  });
});
