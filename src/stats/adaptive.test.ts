import { describe, expect, test } from 'vitest';
import { simulatePairs } from '../../test/support/simulation.ts';
import { abbaOrder, nextBlockPairs, nextStep, type StoppingInput, warmedUp } from './adaptive.ts';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import type { Arm, TpsPair } from './tps-pair.ts';
import { decideVerdict } from './verdict.ts';

// Reference: pair k is off-first when k is even, on-first when odd.
function naiveAbba(nPairs: number): Arm[] {
  const order: Arm[] = [];
  for (let pair = 0; pair < nPairs; pair++) {
    if (pair % 2 === 0) {
      order.push('off');
      order.push('on');
    } else {
      order.push('on');
      order.push('off');
    }
  }
  return order;
}

const decisivePairs: TpsPair[] = [
  { offTps: 1000, onTps: 500 },
  { offTps: 1010, onTps: 505 },
  { offTps: 990, onTps: 497 },
];
const straddlingPairs: TpsPair[] = [
  { offTps: 1000, onTps: 700 },
  { offTps: 1000, onTps: 520 },
  { offTps: 1000, onTps: 610 },
];
const base: StoppingInput = {
  pairsSoFar: [],
  limitPct: 40,
  minPairs: 3,
  maxPairs: 10,
  elapsedS: 0,
  budgetS: 600,
  perPairS: 30,
};

describe('abbaOrder', () => {
  test('starts off,on, on,off, off,on', () => {
    expect(abbaOrder(3)).toEqual(['off', 'on', 'on', 'off', 'off', 'on']);
  });

  test.for([1, 2, 5, 8, 13])('matches the naive order and balances arms for %i pairs', (nPairs) => {
    const order = abbaOrder(nPairs);
    expect(order).toEqual(naiveAbba(nPairs));
    for (let pair = 0; pair < nPairs; pair++) {
      expect(new Set(order.slice(2 * pair, 2 * pair + 2))).toEqual(new Set(['off', 'on']));
    }
  });

  test('cancels a steady drift exactly over an even number of pairs', () => {
    // Each run is 1% faster than the one before (caches warming); the true overhead is 10%.
    const order = abbaOrder(6);
    const tps = order.map((arm, run) => 1000 * 1.01 ** run * (arm === 'on' ? 0.9 : 1));
    const pairs = Array.from({ length: 6 }, (_, pair) => {
      const first = { arm: order[2 * pair], tps: tps[2 * pair] ?? 0 };
      const second = { arm: order[2 * pair + 1], tps: tps[2 * pair + 1] ?? 0 };
      return first.arm === 'off'
        ? { offTps: first.tps, onTps: second.tps }
        : { offTps: second.tps, onTps: first.tps };
    });
    expect(pairedOverhead(pairs).estimatePct).toBeCloseTo(10, 10);
  });

  test.for([0, -1, 2.5])('rejects %s pairs', (nPairs) => {
    expect(() => abbaOrder(nPairs)).toThrow(`nPairs must be a positive integer, got ${nPairs}`);
  });
});

describe('nextStep', () => {
  test.for([
    { name: 'no pairs yet', input: {}, step: 'continue' },
    {
      name: 'decisive but before minPairs',
      input: { pairsSoFar: decisivePairs.slice(0, 2) },
      step: 'continue',
    },
    { name: 'decisive at minPairs', input: { pairsSoFar: decisivePairs }, step: 'stop-decisive' },
    { name: 'straddling with time left', input: { pairsSoFar: straddlingPairs }, step: 'continue' },
    {
      name: 'straddling at maxPairs',
      input: { pairsSoFar: straddlingPairs, maxPairs: 3 },
      step: 'stop-budget',
    },
    {
      name: 'next pair would overrun',
      input: { pairsSoFar: straddlingPairs, elapsedS: 580 },
      step: 'stop-budget',
    },
    {
      name: 'next pair fits exactly',
      input: { pairsSoFar: straddlingPairs, elapsedS: 570 },
      step: 'continue',
    },
    { name: 'budget gone before minPairs', input: { elapsedS: 590 }, step: 'stop-budget' },
    {
      name: 'decisive even with budget gone',
      input: { pairsSoFar: decisivePairs, elapsedS: 600 },
      step: 'stop-decisive',
    },
    {
      name: 'decisive and within the precision target',
      input: { pairsSoFar: decisivePairs, targetHalfWidthPct: 2 },
      step: 'stop-decisive',
    },
    {
      name: 'decisive but wider than the precision target',
      input: { pairsSoFar: decisivePairs, targetHalfWidthPct: 0.1 },
      step: 'continue',
    },
    {
      name: 'wider than the precision target with the budget gone',
      input: { pairsSoFar: decisivePairs, targetHalfWidthPct: 0.1, elapsedS: 590 },
      step: 'stop-budget',
    },
    {
      // τ (0.02, ±4 pp with these pairs' t) is in the verdict's interval, but more pairs cannot shrink it: the
      // target is on the within-run part.
      name: 'within the precision target though τ alone is wider',
      input: { pairsSoFar: decisivePairs, targetHalfWidthPct: 2, runToRunSdLog: 0.02 },
      step: 'stop-decisive',
    },
    {
      name: 'undecided once τ widens the interval, however precise the run',
      input: { pairsSoFar: decisivePairs, targetHalfWidthPct: 2, runToRunSdLog: 0.5 },
      step: 'continue',
    },
  ])('$name → $step', ({ input, step }) => {
    expect(nextStep({ ...base, ...input })).toBe(step);
  });

  test.for([
    { input: { minPairs: 1 }, message: 'minPairs must be an integer of at least 2' },
    { input: { maxPairs: 2 }, message: 'maxPairs must be an integer no smaller than minPairs (3), got 2' },
    { input: { perPairS: 0 }, message: 'perPairS must be a positive number of seconds, got 0' },
    { input: { budgetS: -1 }, message: 'budgetS must be at least 0, got -1' },
    {
      input: { targetHalfWidthPct: 0 },
      message: 'targetHalfWidthPct must be a positive number of percentage points or null, got 0',
    },
    { input: { pairsSoFar: [...straddlingPairs, { offTps: 0, onTps: 1 }] }, message: 'pairs[3].offTps' },
  ])('rejects $message', ({ input, message }) => {
    expect(() => nextStep({ ...base, ...input })).toThrow(message);
  });

  test('driven to the end on simulated runs, it reaches the right verdict when the truth is clear', () => {
    const rng = createRng(4242);
    const outcomes = { right: 0, wrong: 0, undecided: 0 };
    for (let trial = 0; trial < 200; trial++) {
      const trueOverheadPct = trial % 2 === 0 ? 30 : 50; // limit 40: pass on even trials, fail on odd
      const expected = trueOverheadPct < 40 ? 'pass' : 'fail';
      const pairs: TpsPair[] = [];
      let step = nextStep({ ...base, pairsSoFar: pairs });
      while (step === 'continue') {
        pairs.push(...simulatePairs({ pairCount: 1, trueOverheadPct, runNoiseSd: 0.08 }, rng));
        step = nextStep({ ...base, pairsSoFar: pairs, elapsedS: pairs.length * base.perPairS });
      }
      if (step === 'stop-budget') outcomes.undecided++;
      else if (decideVerdict({ ...pairedOverhead(pairs), limitPct: 40 }).verdict === expected)
        outcomes.right++;
      else outcomes.wrong++;
    }
    expect(outcomes.wrong).toBeLessThanOrEqual(4);
    expect(outcomes.right).toBeGreaterThanOrEqual(180);
  });
});

describe('nextBlockPairs', () => {
  // 10 pairs around a 10% overhead with a spread that leaves the interval about ±2 pp wide.
  const spread = [-3, 2, -1, 3, 0, -2, 1, 2.5, -2.5, 0.5];
  const pairs = (n: number, scale = 1): TpsPair[] =>
    Array.from({ length: n }, (_, k) => ({ offTps: 1000, onTps: 900 + scale * 10 * (spread[k % 10] ?? 0) }));
  const halfWidth = (p: TpsPair[]) => {
    const { estimatePct, ci95 } = pairedOverhead(p);
    return ci95 ? Math.max(estimatePct - ci95[0], ci95[1] - estimatePct) : Number.NaN;
  };

  test('asks for about the pairs the precision target needs, not a whole block', () => {
    const measured = pairs(10);
    const hw = halfWidth(measured);
    const target = hw / Math.sqrt(1.3); // needs 13 pairs in all: 3 more, rounded up to 4
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 50, blockPairs: 10, targetHalfWidthPct: target }),
    ).toBe(4);
    const far = hw / Math.sqrt(1.8); // 18 in all: 8 more
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 50, blockPairs: 10, targetHalfWidthPct: far }),
    ).toBe(8);
    const veryFar = hw / 3; // 90 in all: capped at a block
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 50, blockPairs: 10, targetHalfWidthPct: veryFar }),
    ).toBe(10);
  });

  test('a whole block while the verdict is undecided, without a target, or without a limit', () => {
    const measured = pairs(10, 4); // wide: 10% ± ~8 pp against a 12% limit
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 12, blockPairs: 10, targetHalfWidthPct: 1.5 }),
    ).toBe(10);
    expect(
      nextBlockPairs({ pairsSoFar: pairs(10), limitPct: 50, blockPairs: 10, targetHalfWidthPct: null }),
    ).toBe(10);
    expect(
      nextBlockPairs({ pairsSoFar: pairs(10), limitPct: null, blockPairs: 10, targetHalfWidthPct: 1.5 }),
    ).toBe(10);
  });

  test('never fewer than the minimum extension, never more than a block', () => {
    const measured = pairs(10);
    const justOver = halfWidth(measured) * 0.99;
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 50, blockPairs: 10, targetHalfWidthPct: justOver }),
    ).toBe(4);
    expect(
      nextBlockPairs({ pairsSoFar: measured, limitPct: 50, blockPairs: 3, targetHalfWidthPct: justOver }),
    ).toBe(3);
  });
});

describe('warmedUp', () => {
  const rule = { minS: 15, maxS: 45, tolerancePct: 5 };
  test.for([
    { name: 'before the minimum, however steady', chunkTps: [700, 701], elapsedS: 10, done: false },
    { name: 'steady after the minimum', chunkTps: [520, 690, 700], elapsedS: 15, done: true },
    { name: 'still climbing after a restart', chunkTps: [300, 520, 690], elapsedS: 15, done: false },
    { name: 'unsteady at the maximum', chunkTps: [300, 700, 500], elapsedS: 45, done: true },
    { name: 'a frozen chunk before it', chunkTps: [0, 700], elapsedS: 20, done: false },
  ])('$name', ({ chunkTps, elapsedS, done }) => {
    expect(warmedUp({ ...rule, chunkTps, elapsedS })).toBe(done);
  });
});

describe('nextBlockPairs with a run-to-run spread (τ)', () => {
  const pairs: TpsPair[] = Array.from({ length: 10 }, (_, k) => ({
    offTps: 1000,
    onTps: 900 + 4 * (k % 3) - 4,
  }));
  test('τ does not count against the target: the pairs asked for are those without it', () => {
    const ask = (runToRunSdLog: number) =>
      nextBlockPairs({
        pairsSoFar: pairs,
        limitPct: 50,
        blockPairs: 10,
        targetHalfWidthPct: 0.2,
        runToRunSdLog,
      });
    expect(ask(0)).toBeGreaterThan(4);
    expect(ask(0.01)).toBe(ask(0));
  });
  test('a whole block while τ leaves the verdict undecided', () => {
    expect(
      nextBlockPairs({
        pairsSoFar: pairs,
        limitPct: 12,
        blockPairs: 10,
        targetHalfWidthPct: 0.2,
        runToRunSdLog: 0.05,
      }),
    ).toBe(10);
  });
});
