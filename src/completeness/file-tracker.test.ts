import { expect, test } from 'vitest';
import { FileTracker } from './file-tracker.ts';

const file = (name: string, fileId: string) => ({ name, fileId, sizeBytes: 100 });

test('each new file id is a rotation, whatever the files are renamed to', () => {
  const tracker = new FileTracker([file('a.log', '1')]);
  tracker.observe([file('a.log.001', '1'), file('a.log', '2')]);
  const summary = tracker.summarise([file('a.log.002', '1'), file('a.log.001', '2'), file('a.log', '3')]);
  expect(summary).toEqual({ rotations: 2, deleted: [], files: 3 });
});

test('a file seen during the phase and gone at the end was deleted before it was read', () => {
  const tracker = new FileTracker([file('a.log', '1')]);
  tracker.observe([file('a.log.1', '1'), file('a.log', '2')]);
  expect(tracker.summarise([file('a.log.1', '2'), file('a.log', '3')]).deleted).toEqual(['a.log.1']);
});
