import { expect, test } from 'vitest';
import { ioBetween, parseProcIo } from './thread-io.ts';

const io = (syscw: number, wchar: number, syscr = 0) =>
  parseProcIo(
    `rchar: 1\nwchar: ${wchar}\nsyscr: ${syscr}\nsyscw: ${syscw}\nread_bytes: 0\nwrite_bytes: 4096\n`,
  );

test('parses write calls and bytes from /proc/<pid>/task/<tid>/io', () => {
  expect(io(7, 900, 3)).toEqual({ writeCalls: 7, writeBytes: 900, readCalls: 3 });
});

test('sums the chosen threads between two readings; a new thread counts from zero, an exited one is lost', () => {
  const before = new Map([
    [1, io(10, 1000)],
    [2, io(50, 5000)],
  ]);
  const after = new Map([
    [1, io(15, 1600)],
    [2, io(90, 9000)],
    [3, io(4, 400)],
  ]);
  expect(ioBetween(before, after, [1, 3, 4])).toEqual({
    io: { writeCalls: 9, writeBytes: 1000, readCalls: 0 },
    lostThreads: [4],
  });
});
