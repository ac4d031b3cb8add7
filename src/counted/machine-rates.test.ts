import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { timeWrites } from './machine-rates.ts';

test('timing write() gives kernel seconds per call and leaves no file behind', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'auditbench-writes-'));
  try {
    const perWrite = timeWrites(dir, 47);
    // A write() of 47 bytes takes the kernel well under a millisecond anywhere; zero would mean nothing was timed.
    expect(perWrite).toBeGreaterThan(0);
    expect(perWrite).toBeLessThan(1e-3);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
