import { describe, expect, test } from 'vitest';
import { workloads } from '../workload/workloads.ts';
import { gateWorkload } from './gate-workload.ts';

describe('gateWorkload', () => {
  test("standard's gate measures up to 240 s, until ±1.0 pp in its own run", () => {
    const gated = gateWorkload(workloads.standard, 'toggle');
    expect(gated).toMatchObject({ budgetS: 240, targetHalfWidthPct: 1, pairs: workloads.standard.pairs });
    // What sysbench runs is the bench's.
    expect({ ...gated, budgetS: 0, targetHalfWidthPct: 0 }).toEqual({
      ...workloads.standard,
      budgetS: 0,
      targetHalfWidthPct: 0,
    });
  });
  test("smoke's gate stops at the verdict, within 150 s, as CI wants", () => {
    expect(gateWorkload(workloads.smoke, 'toggle')).toMatchObject({ budgetS: 150, targetHalfWidthPct: null });
  });
  test('the restarts design keeps blocks of at most 3 pairs', () => {
    expect(gateWorkload(workloads.standard, 'restarts')).toMatchObject({ pairs: 3, budgetS: 240 });
  });
  test('the reconnect design is separate runs (each reconnects) of at most 3 pairs', () => {
    expect(gateWorkload(workloads.standard, 'reconnect')).toMatchObject({
      pairs: 3,
      design: { kind: 'runs' },
    });
  });
});
