import { expect, test } from 'vitest';
import type { LogFile } from '../log-files.ts';
import { rotationDone, trackRotation, untouchedSince } from './rotation-check.ts';

const file = (generation: number, fileId: string, sizeBytes: number): LogFile => ({
  name: generation === 0 ? 'server_audit.log' : `server_audit.log.${generation}`,
  generation,
  fileId,
  sizeBytes,
});

test('each new identity of the current file is a rotation; bytes count every file once, at its largest', () => {
  const tracker = trackRotation();
  expect(tracker.see([file(0, 'a', 10_000)])).toEqual({ rotationsSeen: 0, loggedBytes: 10_000 });
  expect(tracker.see([file(0, 'b', 100), file(1, 'a', 16_500)])).toEqual({
    rotationsSeen: 1,
    loggedBytes: 16_600,
  });
  // 'a' dropped off the end: still written.
  expect(tracker.see([file(0, 'c', 50), file(1, 'b', 16_400)])).toEqual({
    rotationsSeen: 2,
    loggedBytes: 16_500 + 16_400 + 50,
  });
});

test('what was on disk before the check counts as neither written bytes nor a rotation', () => {
  // An earlier run kept more rotations: .1 to .4 of 1 MB each, and a current file of 500 KB.
  const before = [1, 2, 3, 4].map((g) => file(g, `old${g}`, 1_000_000)).concat(file(0, 'cur', 500_000));
  const tracker = trackRotation(before);
  expect(tracker.see(before)).toEqual({ rotationsSeen: 0, loggedBytes: 0 });
  expect(tracker.see([...before.slice(0, 4), file(0, 'cur', 510_000)])).toEqual({
    rotationsSeen: 0,
    loggedBytes: 10_000,
  });
  expect(tracker.see([file(0, 'new', 20), file(1, 'cur', 510_000)])).toEqual({
    rotationsSeen: 1,
    loggedBytes: 10_020,
  });
});

test('a rotated copy the plugin never renamed is left from before; one it moved or grew is not', () => {
  const before = [file(4, 'd', 900), file(3, 'c', 900), file(1, 'a', 900), file(0, 'x', 10)];
  const after = [
    file(4, 'd', 900),
    file(3, 'b', 900),
    file(2, 'a', 900),
    file(1, 'x', 16_400),
    file(0, 'y', 5),
  ];
  expect(untouchedSince(before, after).map((f) => f.name)).toEqual(['server_audit.log.4']);
});

test.for([
  [{ rotationsSeen: 4, loggedBytes: 0 }, 0, 0, true],
  [{ rotationsSeen: 3, loggedBytes: 0 }, 0, 0, false],
  [{ rotationsSeen: 0, loggedBytes: 6 * 16_384 }, 10, 0, true],
  [{ rotationsSeen: 0, loggedBytes: 0 }, 20_000, 0, true],
  [{ rotationsSeen: 0, loggedBytes: 0 }, 10, 60_000, true],
] as const)('%o after %d statements, %d ms: done %s', ([progress, statements, elapsedMs, done]) => {
  expect(rotationDone(progress, 16_384, statements, elapsedMs)).toBe(done);
});
