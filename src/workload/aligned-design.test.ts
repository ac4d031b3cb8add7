import { expect, test } from 'vitest';
import { measuredSeconds, resegmented } from './aligned-design.ts';
import { workloads } from './workloads.ts';

test('smoke and standard are aligned already: 12 pairs of 2 s a block (at most 36), and 10 (at most 60)', () => {
  for (const [name, pairs, maxPairs] of [
    ['smoke', 12, 36],
    ['standard', 10, 60],
  ] as const) {
    const aligned = resegmented(workloads[name], 'aligned', name);
    expect(aligned).toEqual({ design: { kind: 'toggle', segmentS: 2, aligned: true }, pairs, maxPairs });
    expect(aligned.design).toEqual(workloads[name].design);
  }
  expect(() => resegmented(workloads.seed, 'aligned', 'seed')).toThrow(/does not toggle/);
});

test('the dropped-second design, for comparisons: smoke back to 8 pairs of 3 s (at most 24), standard to 6 (40)', () => {
  const smoke = resegmented(workloads.smoke, 'dropped', 'smoke');
  expect(smoke).toEqual({ design: { kind: 'toggle', segmentS: 3 }, pairs: 8, maxPairs: 24 });
  const standard = resegmented(workloads.standard, 'dropped', 'standard');
  expect([standard.pairs, standard.maxPairs]).toEqual([6, 40]);
});

test("a block measures both arms, plus the aligned design's lead-in second", () => {
  const smoke = workloads.smoke;
  expect(measuredSeconds({ ...smoke, ...resegmented(smoke, 'dropped', 'smoke') })).toBe(48);
  expect(measuredSeconds(smoke)).toBe(49);
  expect(measuredSeconds(workloads.seed)).toBe(2 * 3 * 300);
});
