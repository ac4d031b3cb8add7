import { describe, expect, test } from 'vitest';
import type { ProjectionTraffic } from '../config/projection-traffic.ts';
import type { OperationCost } from '../results/per-event-record.ts';
import { diskUseGbAfter, projectCost } from './project.ts';

const cost = (kind: OperationCost['kind'], addedUs: number, logBytesPerOp: number | null): OperationCost => ({
  kind,
  offUs: 100,
  onUs: 100 + addedUs,
  addedUs,
  addedCi95Us: [addedUs / 2, addedUs * 2],
  overheadPct: 0,
  overheadCi95: null,
  pairs: 8,
  trimmedEachSide: 1,
  eventsPerOp: 1,
  logBytesPerOp,
  addedUsPerEvent: addedUs,
  addedCi95UsPerEvent: null,
  logBytesPerEvent: logBytesPerOp,
});

const traffic: ProjectionTraffic = {
  name: 'test',
  statementsPerS: { select: 1_000, write: 100, failing: 0 },
  connectionsPerS: 10,
  failedLoginsPerS: 1,
  peakFactor: 2,
  freeDiskGb: 50,
};
const operations = [
  cost('point-select', 10, 200),
  cost('update', 20, 300),
  cost('connect-disconnect', 50, 400),
];

describe('projectCost', () => {
  test('CPU is rate × added µs, at the average and the peak; log GB/day is rate × bytes × 86 400', () => {
    const p = projectCost(operations, traffic, null);
    // 1000·10 + 100·20 + 10·50 = 12 500 µs per second
    expect(p.cpuCoresAvg).toBeCloseTo(0.0125, 12);
    expect(p.cpuCoresPeak).toBeCloseTo(0.025, 12);
    expect(p.cpuCoresPeakCi95?.[0]).toBeCloseTo(0.0125, 12);
    expect(p.cpuCoresPeakCi95?.[1]).toBeCloseTo(0.05, 12);
    // (1000·200 + 100·300 + 10·400) B/s = 234 000 B/s
    expect(p.logGbPerDay).toBeCloseTo((234_000 * 86_400) / 1e9, 9);
    expect(p.unmeasured).toEqual(['failed-login']);
  });

  test('a log that never rotates fills the free space; a rotating one is bounded by (N+1)·S', () => {
    const unbounded = projectCost(operations, traffic, { sizeBytes: 1e9, rotations: 0 });
    expect(unbounded.disk).toEqual({ kind: 'unbounded', daysUntilFull: 50 / unbounded.logGbPerDay });
    const bounded = projectCost(operations, traffic, { sizeBytes: 1e9, rotations: 4 });
    expect(bounded.disk).toEqual({
      kind: 'bounded',
      boundGb: 5,
      retainedDays: 5 / bounded.logGbPerDay,
      fitsInFreeDisk: true,
    });
    expect(diskUseGbAfter(bounded, 100)).toBe(5);
    expect(diskUseGbAfter(unbounded, 2)).toBeCloseTo(2 * unbounded.logGbPerDay, 9);
  });

  test('a negative estimate counts as no cost, and no traffic writes nothing', () => {
    const idle: ProjectionTraffic = {
      ...traffic,
      statementsPerS: { select: 0, write: 0, failing: 0 },
      connectionsPerS: 0,
    };
    const p = projectCost(
      [cost('point-select', -3, 100)],
      { ...idle, statementsPerS: { ...idle.statementsPerS, select: 10 } },
      null,
    );
    expect(p.cpuCoresAvg).toBe(0);
    expect(projectCost(operations, { ...idle, failedLoginsPerS: 0 }, null).disk).toEqual({
      kind: 'unbounded',
      daysUntilFull: null,
    });
  });
});
