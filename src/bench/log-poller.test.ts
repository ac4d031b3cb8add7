import { describe, expect, test } from 'vitest';
import { lineAligned, onRanges } from './log-poller.ts';

const sizes = (entries: [string, number][]) => new Map(entries);

describe('onRanges', () => {
  test('bytes from each on mark to the next, per file; a file new since the mark starts at 0', () => {
    const marks = [
      { arm: 'off' as const, sizes: sizes([['a', 10]]) },
      { arm: 'on' as const, sizes: sizes([['a', 12]]) },
      { arm: 'off' as const, sizes: sizes([['a', 40]]) },
      { arm: 'on' as const, sizes: sizes([['a', 41]]) },
      {
        arm: 'off' as const,
        sizes: sizes([
          ['a', 50],
          ['b', 7],
        ]),
      },
    ];
    expect(onRanges(marks)).toEqual([
      { fileId: 'a', fromByte: 12, toByte: 40 },
      { fileId: 'a', fromByte: 41, toByte: 50 },
      { fileId: 'b', fromByte: 0, toByte: 7 },
    ]);
  });
});

describe('lineAligned', () => {
  const buf = Buffer.from('one\ntwo\nthree\n');
  test.for([
    [0, 4, 'one\n'],
    [4, 8, 'two\n'],
    // A line cut at the start belongs to the range before; one cut at the end to this range.
    [2, 6, 'two\n'],
    [5, 14, 'three\n'],
    [0, 14, 'one\ntwo\nthree\n'],
    [9, 10, ''],
  ] as const)('[%i, %i) → %j', ([from, to, text]) => {
    expect(lineAligned(buf, from, to).toString()).toBe(text);
  });
});
