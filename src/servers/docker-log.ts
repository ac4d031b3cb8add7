import { Buffer } from 'node:buffer';

/**
 * Joins the payloads of Docker's multiplexed log stream (a container without a TTY): each frame is an 8-byte
 * header (stream type, 3 zero bytes, payload length as uint32 big-endian) and the payload. stdout and stderr
 * stay interleaved in the order the engine sent them, as in the error log they stand for.
 */
export function demuxDockerLog(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const size = raw.readUInt32BE(offset + 4);
    parts.push(raw.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(parts);
}
