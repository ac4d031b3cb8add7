import { describe, expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { simulatePairs } from '../../test/support/simulation.ts';
import { pairedOverhead } from '../stats/paired-overhead.ts';
import { createRng } from '../stats/random.ts';
import {
  baseBranchOf,
  baseStatus,
  type Ci95,
  changeInterval,
  compareWithBase,
  describeBaseStatus,
  failsHistoryCheck,
  findBase,
  judgeChange,
} from './compare.ts';
import type { HistoryEntry } from './entry.ts';

test.for([
  ['origin/main', 'main'],
  ['main', 'main'],
  ['refs/heads/release/1.2', 'release/1.2'],
  ['refs/remotes/upstream/main', 'main'],
  ['feature/x', 'feature/x'],
] as const)('base ref %s is branch %s', ([ref, branch]) => {
  expect(baseBranchOf(ref)).toBe(branch);
});

describe('changeInterval', () => {
  test('half-widths combine in quadrature around the difference', () => {
    const change = changeInterval({ overheadPct: 10, ci95: [7, 13] }, { overheadPct: 15, ci95: [11, 19] });
    expect(change.changePp).toBe(5);
    expect(change.ci95[0]).toBeCloseTo(0, 10);
    expect(change.ci95[1]).toBeCloseTo(10, 10);
  });

  test('agrees with a naive reference: quantiles of simulated differences of two normal estimates', () => {
    const rng = createRng(7);
    const base = { overheadPct: 12, ci95: [9, 15] as Ci95 };
    const current = { overheadPct: 20, ci95: [14, 26] as Ci95 };
    const z = 1.959_963_985;
    const diffs = Array.from(
      { length: 200_000 },
      () => rng.normal(current.overheadPct, 6 / z) - rng.normal(base.overheadPct, 3 / z),
    ).sort((a, b) => a - b);
    const reference = [diffs[5_000] ?? Number.NaN, diffs[195_000] ?? Number.NaN];
    const { ci95 } = changeInterval(base, current);
    expect(ci95[0]).toBeCloseTo(reference[0] ?? Number.NaN, 1);
    expect(ci95[1]).toBeCloseTo(reference[1] ?? Number.NaN, 1);
  });

  // Two runs measured like the suites measure them (paired log-ratio t intervals), a known true change between them.
  test.for([
    { basePct: 10, currentPct: 15, pairs: 6, noise: 0.05 },
    { basePct: 40, currentPct: 45, pairs: 6, noise: 0.1 },
    { basePct: 20, currentPct: 20, pairs: 18, noise: 0.03 },
  ])('covers the true change at least 95% of the time: $basePct% → $currentPct%, $pairs pairs', (c) => {
    const rng = createRng(2024);
    const runs = 2_000;
    let covered = 0;
    for (let i = 0; i < runs; i++) {
      const estimate = (truePct: number) => {
        const e = pairedOverhead(
          simulatePairs({ pairCount: c.pairs, trueOverheadPct: truePct, runNoiseSd: c.noise }, rng),
        );
        if (!e.ci95) throw new Error('simulation with 2+ pairs always has an interval');
        return { overheadPct: e.estimatePct, ci95: e.ci95 };
      };
      const { ci95 } = changeInterval(estimate(c.basePct), estimate(c.currentPct));
      const truth = c.currentPct - c.basePct;
      if (ci95[0] <= truth && truth <= ci95[1]) covered++;
    }
    // Conservative, not absurdly so (seeded: 97.3%, 97.4%, 96.0%).
    expect(covered / runs).toBeGreaterThanOrEqual(0.95);
    expect(covered / runs).toBeLessThan(0.995);
  });
});

test.for([
  [[6, 9], 5, 'regressed'],
  [[-1, 4], 5, 'ok'],
  [[2, 7], 5, 'inconclusive'],
  [[2, 7], null, 'ungated'],
] as const)('change %j against %s pp is %s', ([ci, max, verdict]) => {
  expect(judgeChange([...ci], max)).toBe(verdict);
});

describe('findBase', () => {
  const current = sampleEntry({
    invocationId: 'invocation-pr',
    branch: 'feature',
    recordedAt: '2026-11-30T10:00:00Z',
  });

  test('takes the newest entry from the base branch, a changed configuration included: that change is what is tracked', () => {
    const older = sampleEntry({ invocationId: 'r1', recordedAt: '2026-11-28T10:00:00Z' });
    const newer = sampleEntry({ invocationId: 'r2', recordedAt: '2026-11-29T10:00:00Z' });
    const otherConfigNewest = sampleEntry({
      invocationId: 'r3',
      configHash: 'other',
      recordedAt: '2026-11-29T12:00:00Z',
    });
    expect(findBase(current, [newer, older, otherConfigNewest], 'main')?.invocationId).toBe('r3');
    expect(findBase(current, [newer, older], 'main')?.invocationId).toBe('r2');
  });

  test('falls back to a changed configuration only when no same-config entry exists', () => {
    const changed = sampleEntry({ invocationId: 'r3', configHash: 'other' });
    expect(findBase(current, [changed], 'main')?.invocationId).toBe('r3');
  });

  test.for([
    ['another branch', { branch: 'feature' }],
    ['another server version', { server: { flavor: 'mariadb', version: '10.5', target: 'local' } }],
    ['another workload', { workload: 'standard' }],
    ['another machine', { fingerprint: 'Intel Xeon ×24, 128 GiB' }],
    ['another run', { runId: 'percona_audit_log', title: 'Percona audit_log (JSON, ASYNCHRONOUS)' }],
    ['a result recorded before runs had ids', { runId: null }],
    ['no measurement', { overheadPct: null, overheadCi95: null, verdict: 'error' }],
    ['an entry of the same invocation', { invocationId: 'invocation-pr' }],
  ] as const)('ignores %s', ([, overrides]) => {
    expect(findBase(current, [sampleEntry(overrides)], 'main')).toBeNull();
  });

  test('configuration runs match by their id: a variant is compared with the same variant only', () => {
    const variant = sampleEntry({ invocationId: 'invocation-pr', runId: 'audit-connect', title: 'renamed' });
    const same = sampleEntry({ runId: 'audit-connect' });
    expect(findBase(variant, [sampleEntry({ runId: 'audit-all' }), same], 'main')).toBe(same);
    expect(findBase(variant, [sampleEntry({ runId: 'audit-all' })], 'main')).toBeNull();
  });
});

describe('compareWithBase', () => {
  const base = sampleEntry({ overheadPct: 10, overheadCi95: [8, 12] });
  const current = sampleEntry({
    invocationId: 'invocation-pr',
    branch: 'feature',
    commit: 'bbbb',
    overheadPct: 20,
    overheadCi95: [17, 23],
  });

  test('a regression beyond the limit fails the gate and names both runs', () => {
    const [c] = compareWithBase([current], [base], { baseBranch: 'main', maxRegressionPp: 5 });
    expect(c).toMatchObject({ kind: 'compared', basis: 'same-config', verdict: 'regressed', changePp: 10 });
    expect(c?.kind === 'compared' && c.base.commit).toBe(base.commit);
    expect(c && failsHistoryCheck(c, 'pass')).toBe(true);
  });

  test('a base from another hostname of the same fingerprint is labelled and gated: in CI every job is a new VM', () => {
    const here = { ...current, hostname: 'runner-b' };
    const [c] = compareWithBase([here], [{ ...base, hostname: 'runner-a' }], {
      baseBranch: 'main',
      maxRegressionPp: 5,
    });
    expect(c).toMatchObject({ kind: 'compared', verdict: 'regressed', crossMachine: true });
    expect(c && failsHistoryCheck(c, 'fail')).toBe(true);
  });
  test('a window of five is pooled, and a failure names the last good and the first bad entry', () => {
    const window = [10, 11, 9, 10, 10, 30].map((pct, i) =>
      sampleEntry({
        invocationId: `r${i}`,
        commit: `c${i}`,
        recordedAt: `2026-11-2${i}T10:00:00Z`,
        overheadPct: pct,
        overheadCi95: [pct - 1, pct + 1],
      }),
    );
    const [c] = compareWithBase([current], window, { baseBranch: 'main', maxRegressionPp: 5 });
    expect(c?.kind === 'compared' && c.window.map((e) => e.invocationId)).toEqual([
      'r5',
      'r4',
      'r3',
      'r2',
      'r1',
    ]);
    // The newest entry already rose (30): pooled with four of 10, the baseline's scatter is wide; 20 is no regression.
    expect(c).toMatchObject({ verdict: 'inconclusive' });
    expect(c?.kind === 'compared' && c.culprit).toMatchObject({
      lastGood: { invocationId: 'r4' },
      firstBad: { invocationId: 'r5' },
    });
  });
  test("inconclusive follows the configuration's inconclusive; no limit gates nothing", () => {
    const [c] = compareWithBase([current], [base], { baseBranch: 'main', maxRegressionPp: 9 });
    expect(c).toMatchObject({ verdict: 'inconclusive' });
    expect(c && failsHistoryCheck(c, 'fail')).toBe(true);
    expect(c && failsHistoryCheck(c, 'pass')).toBe(false);
    const [ungated] = compareWithBase([current], [base], { baseBranch: 'main', maxRegressionPp: null });
    expect(ungated && failsHistoryCheck(ungated, 'fail')).toBe(false);
  });

  test('says when the configuration changed or is unknown', () => {
    const changed = { ...current, configHash: 'different' };
    expect(
      compareWithBase([changed], [base], { baseBranch: 'main', maxRegressionPp: null })[0],
    ).toMatchObject({
      basis: 'config-changed',
    });
    const unknown = { ...current, configHash: null };
    expect(
      compareWithBase([unknown], [base], { baseBranch: 'main', maxRegressionPp: null })[0],
    ).toMatchObject({
      basis: 'config-unknown',
    });
  });

  test('no base and no measurement are reported, never failed', () => {
    const [noBase, notMeasured] = compareWithBase(
      [current, { ...current, overheadPct: null, overheadCi95: null }],
      [],
      { baseBranch: 'main', maxRegressionPp: 1 },
    );
    expect(noBase).toMatchObject({ kind: 'no-base', baseBranch: 'main' });
    expect(notMeasured).toMatchObject({ kind: 'not-measured' });
    expect(noBase && failsHistoryCheck(noBase, 'fail')).toBe(false);
  });
});

describe('the base branch', () => {
  const on = (branch: string) => ({ branch }) as HistoryEntry;
  test('an empty history says no base yet and does not fail', () => {
    const status = baseStatus([], 'main');
    expect(status).toEqual({ kind: 'empty-history' });
    expect(describeBaseStatus(status, 'origin/main', 'main', 'reports/history.jsonl')).toEqual({
      line: 'no base yet: reports/history.jsonl holds no earlier run, so nothing is compared',
      fails: false,
    });
  });

  test('a branch the history never recorded fails, naming the ref and the branches it has', () => {
    const status = baseStatus([on('main'), on('feature/x'), on('main')], 'mian');
    expect(status).toEqual({ kind: 'unknown-branch', seen: ['feature/x', 'main'] });
    expect(describeBaseStatus(status, 'origin/mian', 'mian', 'h.jsonl')).toEqual({
      line: "AUDITBENCH_BASE_REF 'origin/mian' names branch 'mian', which h.jsonl never recorded (it has feature/x, main): fix AUDITBENCH_BASE_REF or record a run of 'mian' first",
      fails: true,
    });
  });

  test('a recorded branch needs no line', () => {
    expect(describeBaseStatus(baseStatus([on('main')], 'main'), 'main', 'main', 'h')).toBeNull();
  });
});
