import { describe, expect, test } from 'vitest';
import { abbaOrder, type CountedArm, countedFigures, pairArms } from './counted-stats.ts';

const arm = (kind: 'off' | 'on', instructions: number, transactions = 100): CountedArm => ({
  kind,
  transactions,
  totals: {
    instructions,
    writeCalls: kind === 'on' ? 200 : 100,
    writeBytes: 0,
    logBytes: kind === 'on' ? 1000 : 0,
    events: 0,
  },
});

/** The textbook interval, written out: mean ± t(0.975, n−1)·sd/√n. */
function naiveCi(values: number[], t: number): [number, number] {
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1));
  return [m - (t * sd) / Math.sqrt(values.length), m + (t * sd) / Math.sqrt(values.length)];
}

describe('counted statistics', () => {
  test('ABBA order', () => {
    expect(abbaOrder(3)).toEqual(['off', 'on', 'on', 'off', 'off', 'on']);
  });

  test('pairs take one arm of each kind, whatever their order', () => {
    const pairs = pairArms([arm('off', 1), arm('on', 2), arm('on', 3), arm('off', 4)]);
    expect(pairs.map(([off, on]) => [off.totals.instructions, on.totals.instructions])).toEqual([
      [1, 2],
      [4, 3],
    ]);
    expect(() => pairArms([arm('off', 1), arm('off', 2)])).toThrow(/both 'off'/);
  });

  test('per-transaction figures and their intervals match the textbook', () => {
    const arms = [
      arm('off', 2_700_000 * 100),
      arm('on', 2_880_000 * 100),
      arm('on', 2_870_000 * 100),
      arm('off', 2_690_000 * 100),
      arm('off', 2_695_000 * 100),
      arm('on', 2_875_000 * 100),
    ];
    const f = countedFigures(arms).instructions;
    expect(f.offPerTx).toBeCloseTo(2_695_000, 3);
    expect(f.onPerTx).toBeCloseTo(2_875_000, 3);
    const added = [180_000, 180_000, 180_000];
    expect(f.addedPerTx).toBeCloseTo(180_000, 3);
    expect(f.addedCi95?.[0]).toBeCloseTo(naiveCi(added, 4.302653)[0], 3);
    const pcts = [(2_880 / 2_700 - 1) * 100, (2_870 / 2_690 - 1) * 100, (2_875 / 2_695 - 1) * 100];
    const [lo, hi] = naiveCi(pcts, 4.302653);
    expect(f.pctCi95?.[0]).toBeCloseTo(lo, 6);
    expect(f.pctCi95?.[1]).toBeCloseTo(hi, 6);
    // The largest arm's distance from its kind's mean: (2,700,000 − 2,695,000) / 2,695,000.
    expect(f.spreadPct.off).toBeCloseTo((5_000 / 2_695_000) * 100, 9);
  });

  test('a quantity that is zero when off has an added figure but no percentage', () => {
    const f = countedFigures([arm('off', 1), arm('on', 1)]).logBytes;
    expect(f.addedPerTx).toBe(10);
    expect(f.pct).toBeNull();
    expect(f.addedCi95).toBeNull();
  });
});
