import { expect, test } from 'vitest';
import type { LogFile } from '../log-files.ts';
import { rotationDone, trackRotation } from './rotation-check.ts';

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

test.for([
  [{ rotationsSeen: 4, loggedBytes: 0 }, 0, 0, true],
  [{ rotationsSeen: 3, loggedBytes: 0 }, 0, 0, false],
  [{ rotationsSeen: 0, loggedBytes: 6 * 16_384 }, 10, 0, true],
  [{ rotationsSeen: 0, loggedBytes: 0 }, 20_000, 0, true],
  [{ rotationsSeen: 0, loggedBytes: 0 }, 10, 60_000, true],
] as const)('%o after %d statements, %d ms: done %s', ([progress, statements, elapsedMs, done]) => {
  expect(rotationDone(progress, 16_384, statements, elapsedMs)).toBe(done);
});
