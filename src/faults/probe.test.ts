import { describe, expect, test } from 'vitest';
import { longestGapMs, newLines, sentBetween } from './probe.ts';

describe('longestGapMs', () => {
  test.for([
    ['answers every 100 ms', [100, 200, 300, 400], 0, 500, 100],
    ['a 3 s hole between answers', [100, 200, 3_200, 3_300], 0, 3_400, 3_000],
    ['no answer at all: the whole window', [], 1_000, 4_000, 3_000],
    ['from the last answer to the end', [100, 200], 0, 2_000, 1_800],
    ['answers outside the window are ignored', [50, 5_000], 100, 1_100, 1_000],
  ] as const)('%s', ([, done, from, to, gap]) => {
    expect(longestGapMs([...done], from, to)).toBe(gap);
  });
});

test('sentBetween takes marks sent in [from, to)', () => {
  const marks = [10, 20, 30].map((sentMs, n) => ({ n, sentMs, doneMs: sentMs + 1, acked: true }));
  expect(sentBetween(marks, 20, 30).map((m) => m.n)).toEqual([1]);
});

describe('newLines', () => {
  test.for([
    ['lines after the last old one', 'a\nb\n', 'a\nb\nc\nd\n', ['c', 'd']],
    ['nothing new', 'a\nb\n', 'a\nb\n', []],
    ['an empty log before', '', 'x\n', ['x']],
    ['the old tail scrolled away: all of it', 'a\nb\n', 'y\nz\n', ['y', 'z']],
  ] as const)('%s', ([, before, after, lines]) => {
    expect(newLines(before, after)).toEqual(lines);
  });
});
