import { expect, test } from 'vitest';
import { alignedWorkload, droppedWorkload, measuredSeconds } from './aligned-design.ts';
import { workloads } from './workloads.ts';

test('smoke and standard are aligned already: 12 pairs of 2 s a block (at most 36), and 10 (at most 60)', () => {
  for (const [name, pairs, maxPairs] of [
    ['smoke', 12, 36],
    ['standard', 10, 60],
  ] as const) {
    const aligned = alignedWorkload(workloads[name]);
    expect(aligned.design).toEqual({ kind: 'toggle', segmentS: 2, aligned: true });
    expect([aligned.pairs, aligned.maxPairs]).toEqual([pairs, maxPairs]);
    expect(aligned).toEqual(workloads[name]);
  }
  expect(() => alignedWorkload(workloads.seed)).toThrow(/does not toggle/);
});

test('the dropped-second design, for comparisons: smoke back to 8 pairs of 3 s (at most 24), standard to 6 (40)', () => {
  const smoke = droppedWorkload(workloads.smoke);
  expect(smoke.design).toEqual({ kind: 'toggle', segmentS: 3 });
  expect([smoke.pairs, smoke.maxPairs]).toEqual([8, 24]);
  expect({ ...smoke, design: null, pairs: 0, maxPairs: 0 }).toEqual({
    ...workloads.smoke,
    design: null,
    pairs: 0,
    maxPairs: 0,
  });
  const standard = droppedWorkload(workloads.standard);
  expect([standard.pairs, standard.maxPairs]).toEqual([6, 40]);
});

test("a block measures both arms, plus the aligned design's lead-in second", () => {
  expect(measuredSeconds(droppedWorkload(workloads.smoke))).toBe(48);
  expect(measuredSeconds(workloads.smoke)).toBe(49);
  expect(measuredSeconds(workloads.seed)).toBe(2 * 3 * 300);
});
