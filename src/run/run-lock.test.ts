import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { takeRunLock } from './run-lock.ts';

test('a second run waits for the first, names it, gives up at its bound, and gets the lock once it is free', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-lock-test-'));
  const lock = path.join(dir, 'run.lock');
  try {
    const release = await takeRunLock(5, () => {}, lock);
    const said: string[] = [];
    const started = Date.now();
    const refusal = await takeRunLock(2, (line) => said.push(line), lock).then(
      () => new Error('took a held lock'),
      (error: Error) => error,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(said.join('\n')).toMatch(
      new RegExp(`waiting for another run to finish \\(it holds ${lock}: pid ${process.pid}`),
    );
    expect(refusal.message).toMatch(
      new RegExp(`another auditbench run still holds ${lock} .*pid ${process.pid}`),
    );
    await release();
    const again = await takeRunLock(5, () => {}, lock);
    await again();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
