import { describe, expect, test } from 'vitest';
import { addedUsFromOverheadPct, type LatencyPair, operationCost } from './operation-cost.ts';

const noLog = { eventsPerOp: null, logBytesPerOp: null };

describe('operationCost', () => {
  test('pairs where on always takes 10% longer add 10% of the off latency', () => {
    const pairs: LatencyPair[] = [100, 120, 90, 110, 105].map((offUs) => ({ offUs, onUs: offUs * 1.1 }));
    const cost = operationCost('point-select', pairs, { eventsPerOp: 2, logBytesPerOp: 300 });
    expect(cost.offUs).toBe(105);
    expect(cost.addedUs).toBeCloseTo(10.5, 9);
    expect(cost.overheadPct).toBeCloseTo(100 * (1 - 1 / 1.1), 9);
    expect(cost.addedCi95Us?.[0]).toBeCloseTo(10.5, 6);
    expect(cost.addedUsPerEvent).toBeCloseTo(5.25, 9);
    expect(cost.logBytesPerEvent).toBe(150);
  });

  test('the interval brackets the estimate and scales per event', () => {
    const ratios = [1.02, 1.05, 1.03, 1.08, 1.01, 1.04, 1.06, 0.99];
    const pairs = ratios.map((r, i) => ({ offUs: 200 + i, onUs: (200 + i) * r }));
    const cost = operationCost('update', pairs, { eventsPerOp: 3, logBytesPerOp: 600 });
    const [low, high] = cost.addedCi95Us ?? [Number.NaN, Number.NaN];
    expect(low).toBeLessThan(cost.addedUs);
    expect(high).toBeGreaterThan(cost.addedUs);
    expect(cost.addedCi95UsPerEvent?.[1]).toBeCloseTo(high / 3, 9);
    expect(cost.trimmedEachSide).toBe(1);
  });

  test('without events per operation the per-event figures are null', () => {
    const cost = operationCost(
      'failed-login',
      [
        { offUs: 1000, onUs: 1010 },
        { offUs: 990, onUs: 1003 },
      ],
      noLog,
    );
    expect([cost.addedUsPerEvent, cost.addedCi95UsPerEvent, cost.logBytesPerEvent]).toEqual([
      null,
      null,
      null,
    ]);
  });

  test.for([
    [[], 'no off/on latency pairs'],
    [[{ offUs: 0, onUs: 5 }], 'pairs[0].offUs must be a positive latency'],
    [[{ offUs: 5, onUs: Number.NaN }], 'pairs[0].onUs must be a positive latency'],
  ] as [LatencyPair[], string][])('rejects %j', ([pairs, message]) => {
    expect(() => operationCost('update', pairs, noLog)).toThrow(message);
  });
});

test.for([
  [100, 0, 0],
  [100, 50, 100],
  [200, 10, 200 / 9],
] as [number, number, number][])('addedUsFromOverheadPct(%d µs, %d%%) = %d µs', ([base, pct, added]) => {
  expect(addedUsFromOverheadPct(base, pct)).toBeCloseTo(added, 9);
});
