import { expect, test } from 'vitest';
import { type BlockPlan, pairsWithin } from './blocks.ts';

const aligned: BlockPlan = {
  pairs: 10,
  design: { kind: 'toggle', segmentS: 2, aligned: true },
  durationS: 30,
};

test.for([
  [60, 10],
  [40, 10],
  [39, 9],
  [17, 4],
  [15, 0],
] as const)('a block of 10 pairs of 2 s in %i s: %i pairs', ([seconds, pairs]) => {
  expect(pairsWithin(aligned, seconds, 4)).toBe(pairs);
});

test('a plan shorter than the floor still runs whole when it fits', () => {
  expect(pairsWithin({ ...aligned, pairs: 2 }, 8, 4)).toBe(2);
  expect(pairsWithin({ ...aligned, pairs: 2 }, 7, 4)).toBe(0);
});
