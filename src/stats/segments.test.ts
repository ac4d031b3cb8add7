import { describe, expect, test } from 'vitest';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';
import { type ArmSwitch, pairAdjacentSegments, segmentToggledRun, type TpsInterval } from './segments.ts';
import type { Arm, NonEmpty, TpsPair } from './tps-pair.ts';

// Reference: label each second with its arm, or null when a switch falls in [start, end) or it is settling.
function naiveSegmentMeans(
  intervals: TpsInterval[],
  schedule: ArmSwitch[],
  settleIntervals: number,
): { arm: Arm; meanTps: number | null }[] {
  const result: { arm: Arm; meanTps: number | null }[] = [];
  for (let k = 0; k < schedule.length; k++) {
    const fromS = schedule[k]?.atS ?? 0;
    const toS = schedule[k + 1]?.atS ?? Number.POSITIVE_INFINITY;
    let skipped = 0;
    let sum = 0;
    let count = 0;
    for (const iv of intervals) {
      const startS = iv.atS - 1;
      if (startS <= fromS || iv.atS > toS) continue;
      if (skipped < settleIntervals) {
        skipped++;
        continue;
      }
      sum += iv.tps;
      count++;
    }
    result.push({ arm: schedule[k]?.arm ?? 'off', meanTps: count === 0 ? null : sum / count });
  }
  return result;
}

/** A 60 s run toggled every 10 s; the plugin costs 20%, and the first second after a switch stalls. */
function toggledRun(rng = createRng(5)): { intervals: TpsInterval[]; schedule: NonEmpty<ArmSwitch> } {
  const schedule: NonEmpty<ArmSwitch> = [{ atS: 0, arm: 'off' }];
  for (let atS = 10; atS < 60; atS += 10) schedule.push({ atS, arm: (atS / 10) % 2 === 1 ? 'on' : 'off' });
  const intervals = Array.from({ length: 60 }, (_, second) => {
    const on = Math.floor(second / 10) % 2 === 1;
    const stall = second % 10 === 0 && second > 0 ? 0.3 : 1;
    return { atS: second + 1, tps: 1000 * (on ? 0.8 : 1) * stall * Math.exp(rng.normal(0, 0.05)) };
  });
  return { intervals, schedule };
}

describe('segmentToggledRun', () => {
  test.for([0, 1, 2])('matches the naive segment means with %i settle intervals', (settleIntervals) => {
    const { intervals, schedule } = toggledRun();
    const run = segmentToggledRun(intervals, schedule, { settleIntervals });
    const naive = naiveSegmentMeans(intervals, schedule, settleIntervals);
    expect(run.segments.map((s) => s.arm)).toEqual(naive.map((s) => s.arm));
    run.segments.forEach((segment, index) => {
      expect(segment.meanTps).toBeCloseTo(naive[index]?.meanTps ?? Number.NaN, 10);
    });
  });

  test('drops the interval holding each switch and pairs off/on neighbours', () => {
    const { intervals, schedule } = toggledRun();
    const run = segmentToggledRun(intervals, schedule);
    // The first interval [0, 1) starts on the initial "switch" at 0, so it goes too: 6 dropped in all.
    expect(run.droppedIntervals).toBe(6);
    expect(run.segments.map((s) => s.keptIntervals)).toEqual([9, 9, 9, 9, 9, 9]);
    expect(run.pairs).toHaveLength(3);
  });

  test('recovers the 20% overhead, undisturbed by the stall after each switch', () => {
    const { intervals, schedule } = toggledRun();
    const estimate = pairedOverhead(segmentToggledRun(intervals, schedule).pairs);
    expect(estimate.ci95?.[0]).toBeLessThan(20);
    expect(estimate.ci95?.[1]).toBeGreaterThan(20);
  });

  test('a switch between report boundaries drops the one interval it falls in', () => {
    const intervals = [1, 2, 3, 4, 5, 6].map((atS) => ({ atS, tps: atS < 3.5 ? 100 : 50 }));
    const run = segmentToggledRun(intervals, [
      { atS: -1, arm: 'off' },
      { atS: 2.5, arm: 'on' },
    ]);
    expect(run.segments).toEqual([
      { arm: 'off', fromS: -1, toS: 2.5, keptIntervals: 2, meanTps: 100 },
      { arm: 'on', fromS: 2.5, toS: 6, keptIntervals: 3, meanTps: 50 },
    ]);
    expect(run.pairs).toEqual([{ offTps: 100, onTps: 50 }]);
  });

  test('a segment shorter than the settle time has no mean and pairs with nothing', () => {
    const intervals = [1, 2, 3, 4, 5, 6, 7, 8].map((atS) => ({ atS, tps: 100 }));
    const schedule: NonEmpty<ArmSwitch> = [
      { atS: 0, arm: 'off' },
      { atS: 4, arm: 'on' },
      { atS: 5, arm: 'off' },
    ];
    const run = segmentToggledRun(intervals, schedule, { settleIntervals: 1 });
    expect(run.segments.map((s) => s.meanTps)).toEqual([100, null, 100]);
    expect(run.pairs).toEqual([]);
  });

  test.for([
    {
      intervals: [
        { atS: 2, tps: 1 },
        { atS: 2, tps: 1 },
      ],
      message: 'intervals[1].atS must be later than intervals[0].atS (2), got 2',
    },
    {
      intervals: [{ atS: 1, tps: -3 }],
      message: 'intervals[0].tps must be a finite TPS of at least 0, got -3',
    },
    { intervals: [], options: { reportIntervalS: 0 }, message: 'reportIntervalS must be a positive number' },
    {
      intervals: [],
      options: { settleIntervals: -1 },
      message: 'settleIntervals must be a non-negative integer',
    },
  ])('rejects $message', ({ intervals, options, message }) => {
    expect(() => segmentToggledRun(intervals, [{ atS: 0, arm: 'off' }], options)).toThrow(message);
  });

  test('rejects an unordered schedule or an unknown arm', () => {
    const schedule = [
      { atS: 5, arm: 'on' },
      { atS: 3, arm: 'off' },
    ] as NonEmpty<ArmSwitch>;
    expect(() => segmentToggledRun([], schedule)).toThrow(
      'schedule[1].atS must be later than schedule[0].atS (5)',
    );
    const unknown = [{ atS: 0, arm: 'maybe' }] as unknown as NonEmpty<ArmSwitch>;
    expect(() => segmentToggledRun([], unknown)).toThrow(
      `schedule[0].arm must be 'off' or 'on', got "maybe"`,
    );
  });
});

describe('pairAdjacentSegments', () => {
  const segment = (arm: Arm, meanTps: number | null) => ({
    arm,
    fromS: 0,
    toS: 1,
    keptIntervals: 1,
    meanTps,
  });

  test.for([
    {
      arms: [segment('off', 10), segment('on', 8), segment('on', 9), segment('off', 11)],
      pairs: [
        [10, 8],
        [11, 9],
      ],
    },
    { arms: [segment('on', 8), segment('on', 9), segment('off', 11)], pairs: [[11, 9]] },
    {
      arms: [segment('off', 10), segment('on', null), segment('off', 11), segment('on', 7)],
      pairs: [[11, 7]],
    },
    { arms: [segment('off', 10)], pairs: [] },
    // A server frozen for a whole segment (seen here: 79, 0, 0 TPS) leaves it out instead of a ratio against 0.
    {
      arms: [segment('off', 10), segment('on', 0), segment('off', 11), segment('on', 7)],
      pairs: [[11, 7]],
    },
  ])('pairs %#', ({ arms, pairs }) => {
    const expected: TpsPair[] = pairs.map(([offTps = 0, onTps = 0]) => ({ offTps, onTps }));
    expect(pairAdjacentSegments(arms)).toEqual(expected);
  });
});

describe('segment center', () => {
  test('the median ignores a one-second stall that the mean does not', () => {
    const intervals = [100, 100, 100, 100, 98, 10, 97, 99].map((tps, i) => ({ atS: i + 1, tps }));
    const schedule: [ArmSwitch, ...ArmSwitch[]] = [
      { atS: 0, arm: 'off' },
      { atS: 4, arm: 'on' },
    ];
    const byMedian = segmentToggledRun(intervals, schedule, { center: 'median' });
    const byMean = segmentToggledRun(intervals, schedule);
    expect(byMedian.pairs).toEqual([{ offTps: 100, onTps: 97 }]);
    expect(byMean.pairs[0]?.onTps).toBeCloseTo((10 + 97 + 99) / 3, 6);
  });
});

describe('switches made just ahead of a report boundary (switchToleranceS)', () => {
  const flat = (n: number) => Array.from({ length: n }, (_, k) => ({ atS: k + 1, tps: 100 + k }));
  const early: NonEmpty<ArmSwitch> = [
    { atS: 0, arm: 'off' },
    { atS: 2.995, arm: 'on' },
  ];

  test('within the tolerance: the switch sits on the boundary and no second is dropped but the run’s first', () => {
    const run = segmentToggledRun(flat(6), early, { switchToleranceS: 0.02 });
    expect(run.segments.map((s) => [s.fromS, s.keptIntervals])).toEqual([
      [0, 2],
      [3, 3],
    ]);
    expect(run.droppedIntervals).toBe(1);
  });

  test('without a tolerance (today), the second holding the switch is dropped', () => {
    const run = segmentToggledRun(flat(6), early);
    expect(run.segments.map((s) => s.keptIntervals)).toEqual([1, 3]);
    expect(run.droppedIntervals).toBe(2);
  });

  test('a switch just after a boundary is not moved back onto it: that second ran under both arms', () => {
    const late: NonEmpty<ArmSwitch> = [
      { atS: 0, arm: 'off' },
      { atS: 3.005, arm: 'on' },
    ];
    const run = segmentToggledRun(flat(6), late, { switchToleranceS: 0.02 });
    expect(run.segments.map((s) => s.keptIntervals)).toEqual([2, 2]);
  });

  test('a tolerance of half a report interval or more is refused, naming the setting', () => {
    expect(() => segmentToggledRun(flat(6), early, { switchToleranceS: 0.5 })).toThrow(
      /^switchToleranceS must be at least 0 and under half a report interval \(0.5 s\), got 0.5$/,
    );
  });
});
