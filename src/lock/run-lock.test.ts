import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect, test } from 'vitest';
import { heldByAncestor, takeRunLock } from './run-lock.ts';

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

test('a run nested in the one holding the lock sees it held by an ancestor; another run does not', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-lock-test-'));
  const lock = path.join(dir, 'run.lock');
  try {
    expect(await heldByAncestor(lock)).toBe(false);
    const release = await takeRunLock(5, () => {}, lock);
    expect(await heldByAncestor(lock)).toBe(true);
    // A child of this process is nested in it; a process beside it (its parent's holder line) is not.
    const nested = await execa(process.execPath, [
      '--import',
      'tsx',
      '-e',
      `import('${path.resolve('src/lock/run-lock.ts')}').then(async (m) => console.log(await m.heldByAncestor(${JSON.stringify(lock)})))`,
    ]);
    expect(nested.stdout.trim()).toBe('true');
    await writeFile(`${lock}.holder`, 'pid 999999999, started then, in /: vitest run\n');
    expect(await heldByAncestor(lock)).toBe(false);
    await writeFile(`${lock}.holder`, `pid ${process.pid}, started now, in /: vitest run\n`);
    await release();
    // Released, the holder line is stale: this process holds nothing any more.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await heldByAncestor(lock)).toBe(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
