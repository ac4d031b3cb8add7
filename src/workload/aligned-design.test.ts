import { expect, test } from 'vitest';
import { alignedWorkload, droppedWorkload, measuredSeconds } from './aligned-design.ts';
import { workloads } from './workloads.ts';

test('smoke in the aligned design: 12 pairs of 2 s a block, at most 36, the same seconds as 8 pairs of 3 s', () => {
  const aligned = alignedWorkload(workloads.smoke);
  expect(aligned.design).toEqual({ kind: 'toggle', segmentS: 2, aligned: true });
  expect([aligned.pairs, aligned.maxPairs]).toEqual([12, 36]);
  expect({ ...aligned, design: null, pairs: 0, maxPairs: 0 }).toEqual({
    ...workloads.smoke,
    design: null,
    pairs: 0,
    maxPairs: 0,
  });
});

test('standard keeps its 60 s blocks; a workload that does not toggle is refused', () => {
  const aligned = alignedWorkload(workloads.standard);
  expect([aligned.pairs, aligned.maxPairs]).toEqual([15, 60]);
  expect(() => alignedWorkload(workloads.seed)).toThrow(/does not toggle/);
});

test('the dropped-second design is the aligned one undone: standard back to 10 pairs of 3 s, at most 40', () => {
  const dropped = droppedWorkload(alignedWorkload(workloads.standard));
  expect(dropped.design).toEqual({ kind: 'toggle', segmentS: 3 });
  expect([dropped.pairs, dropped.maxPairs]).toEqual([10, 40]);
});

test("a block measures both arms, plus the aligned design's lead-in second", () => {
  expect(measuredSeconds(workloads.smoke)).toBe(48);
  expect(measuredSeconds(alignedWorkload(workloads.smoke))).toBe(49);
  expect(measuredSeconds(workloads.seed)).toBe(2 * 3 * 300);
});
