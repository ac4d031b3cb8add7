import { Buffer } from 'node:buffer';
import { expect, test } from 'vitest';
import { demuxDockerLog } from './docker-log.ts';

const frame = (stream: 1 | 2, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt8(stream, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

test('joins stdout and stderr frames in order', () => {
  const raw = Buffer.concat([
    frame(2, '2026-01-01 [Note] starting\n'),
    frame(1, 'out\n'),
    frame(2, 'ready\n'),
  ]);
  expect(demuxDockerLog(raw).toString()).toBe('2026-01-01 [Note] starting\nout\nready\n');
});

test('a frame cut short keeps what arrived; an empty stream is empty', () => {
  const cut = frame(2, 'partial line').subarray(0, 12);
  expect(demuxDockerLog(Buffer.concat([frame(1, 'a\n'), cut])).toString()).toBe('a\npart');
  expect(demuxDockerLog(Buffer.alloc(0)).length).toBe(0);
});
