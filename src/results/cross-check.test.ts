import { expect, test } from 'vitest';
import { crossCheck } from './cross-check.ts';
import type { OperationCost } from './per-event-record.ts';

const cost = (kind: OperationCost['kind'], addedUs: number): OperationCost => ({
  kind,
  offUs: 100,
  onUs: 100 + addedUs,
  addedUs,
  addedCi95Us: [addedUs - 1, addedUs + 1],
  overheadPct: 0,
  overheadCi95: null,
  pairs: 8,
  trimmedEachSide: 1,
  eventsPerOp: 2,
  logBytesPerOp: 300,
  addedUsPerEvent: addedUs / 2,
  addedCi95UsPerEvent: null,
  logBytesPerEvent: 150,
});

test('1000 TPS on one core is 1000 µs per transaction; 16·5 + 4·5 = 100 µs more predicts 100/1100', () => {
  const check = crossCheck([cost('point-select', 5), cost('update', 5)], {
    baselineTps: 1_000,
    overheadPct: 9.0909,
    overheadCi95: [7, 11],
    serverCores: 1,
  });
  expect(check?.addedUsPerTxn).toBe(100);
  expect(check?.predictedLossPct).toBeCloseTo(100 / 11, 9);
  expect(check?.ratio).toBeCloseTo(1, 4);
  // bounds: 16·4 + 4·4 = 80 and 16·6 + 4·6 = 120 µs
  expect(check?.predictedCi95?.[0]).toBeCloseTo((100 * 80) / 1080, 9);
  expect(check?.predictedCi95?.[1]).toBeCloseTo((100 * 120) / 1120, 9);
});

test('no ratio against a measured loss of 0 or less, and no check without a select and an update cost', () => {
  const sysbench = { baselineTps: 500, overheadPct: -0.5, overheadCi95: null, serverCores: 1 };
  expect(crossCheck([cost('point-select', 5), cost('update', 5)], sysbench)?.ratio).toBeNull();
  expect(crossCheck([cost('point-select', 5)], sysbench)).toBeNull();
});

test("an interval that reaches below 0 µs is cut at no loss, never past the formula's pole", () => {
  const noisy = (kind: OperationCost['kind']) => ({
    ...cost(kind, -1),
    addedCi95Us: [-400, 300] as [number, number],
  });
  const check = crossCheck([noisy('point-select'), noisy('update')], {
    baselineTps: 1_000,
    overheadPct: 5,
    overheadCi95: null,
    serverCores: 1,
  });
  expect(check?.predictedCi95?.[0]).toBe(0);
  expect(check?.predictedCi95?.[1]).toBeCloseTo((100 * 6_000) / 7_000, 9);
});
