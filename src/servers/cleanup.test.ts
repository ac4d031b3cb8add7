import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { defaultsFileArg, sweepStale } from './cleanup.ts';
import { type OwnerRecord, readOwnerRecord } from './owner-record.ts';
import { isAlive, startTicksOf } from './proc-table.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let scratch = '';
const started: ChildProcess[] = [];

/** A real `sleep` whose argv[0] is `argv0`: what /proc shows of a server started with that argument. */
async function sleeper(argv0: string): Promise<number> {
  const child = spawn('sleep', ['60'], { argv0, stdio: 'ignore' });
  started.push(child);
  await once(child, 'spawn');
  return child.pid as number;
}

/** A pid that was a process a moment ago and is gone now. */
async function deadPid(): Promise<number> {
  const child = spawn('true', { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid as number;
}

async function runFolder(name: string, record: OwnerRecord | null, mode = 0o700): Promise<string> {
  const dir = path.join(scratch, name);
  await mkdir(path.join(dir, 'data'), { recursive: true });
  if (record) await writeFile(path.join(dir, 'owner.json'), JSON.stringify(record));
  await chmod(dir, mode);
  return dir;
}

const gone = async (pid: number) => {
  for (let i = 0; i < 50 && isAlive(pid) && (await startTicksOf(pid)) !== null; i++) await sleep(100);
  return (await startTicksOf(pid)) === null;
};
const quiet = () => {};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'sweep-scratch-'));
});
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('sweepStale', () => {
  test('a folder named with regex characters and a dead owner: its own server ends, nothing else', async () => {
    const dir = await runFolder('auditbench-x|.*|y', {
      owner: { pid: await deadPid(), startTicks: 1 },
      servers: [],
    });
    const victim = await sleeper(defaultsFileArg(dir));
    const lookalike = await sleeper(defaultsFileArg(path.join(scratch, 'auditbench-xAy')));
    const longer = await sleeper(`${defaultsFileArg(dir)}.bak`);
    const outcome = await sweepStale(scratch, quiet);
    expect(outcome.removed).toEqual([{ dir, endedPids: [victim] }]);
    expect(await gone(victim)).toBe(true);
    for (const pid of [lookalike, longer]) expect(isAlive(pid), `pid ${pid}`).toBe(true);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
  });

  test('an owner pid reused by another process (another start time) is not the owner', async () => {
    const ticks = (await startTicksOf(process.pid)) as number;
    const dir = await runFolder('auditbench-reused', {
      owner: { pid: process.pid, startTicks: ticks - 1 },
      servers: [],
    });
    const victim = await sleeper(defaultsFileArg(dir));
    expect((await sweepStale(scratch, quiet)).removed).toEqual([{ dir, endedPids: [victim] }]);
  });

  test('a live owner keeps its folder and its server', async () => {
    const owner = { pid: process.pid, startTicks: await startTicksOf(process.pid) };
    const dir = await runFolder('auditbench-live', { owner, servers: [] });
    const server = await sleeper(defaultsFileArg(dir));
    expect((await sweepStale(scratch, quiet)).removed).toEqual([]);
    expect(isAlive(server)).toBe(true);
    await rm(dir, { recursive: true });
  });

  test('a process older than the recorded owner is not its server', async () => {
    const dir = await runFolder('auditbench-older', null);
    const older = await sleeper(defaultsFileArg(dir));
    const record = {
      owner: { pid: await deadPid(), startTicks: ((await startTicksOf(older)) as number) + 1 },
      servers: [],
    };
    await writeFile(path.join(dir, 'owner.json'), JSON.stringify(record));
    expect((await sweepStale(scratch, quiet)).removed).toEqual([{ dir, endedPids: [] }]);
    expect(isAlive(older)).toBe(true);
  });

  test('an old owner.pid is read as a pid; a folder without a record is not a run’s', async () => {
    const legacy = await runFolder('auditbench-legacy', null);
    await writeFile(path.join(legacy, 'owner.pid'), String(await deadPid()));
    expect(await readOwnerRecord(legacy)).toMatchObject({ owner: { startTicks: null } });
    const bare = await runFolder('auditbench-bare', null);
    expect((await sweepStale(scratch, quiet)).removed.map((r) => r.dir)).toEqual([legacy]);
    await rm(bare, { recursive: true });
  });

  test('a group-writable folder, a symlink and a truncated record are left alone', async () => {
    const dead = { owner: { pid: await deadPid(), startTicks: 1 }, servers: [] };
    const shared = await runFolder('auditbench-shared', dead, 0o770);
    const target = await runFolder('not-a-run', dead);
    const link = path.join(scratch, 'auditbench-link');
    await symlink(target, link);
    const truncated = await runFolder('auditbench-truncated', null);
    await writeFile(path.join(truncated, 'owner.json'), '{"owner":{"pid":');
    const victim = await sleeper(defaultsFileArg(shared));
    const outcome = await sweepStale(scratch, quiet);
    expect(outcome.removed).toEqual([]);
    expect(outcome.left).toEqual(
      expect.arrayContaining([
        { dir: shared, why: 'it is writable by its group (mode 770)' },
        { dir: link, why: 'it is a symlink' },
      ]),
    );
    expect(isAlive(victim)).toBe(true);
    expect((await stat(path.join(target, 'owner.json'))).isFile()).toBe(true);
    await rm(shared, { recursive: true });
    await rm(link);
    await rm(truncated, { recursive: true });
  });

  test.skipIf(process.getuid?.() !== 0)('another user’s folder is never touched', async () => {
    const dir = await runFolder('auditbench-theirs', {
      owner: { pid: await deadPid(), startTicks: 1 },
      servers: [],
    });
    await chown(dir, 65_534, 65_534);
    const victim = await sleeper(defaultsFileArg(dir));
    const outcome = await sweepStale(scratch, quiet);
    expect(outcome.left).toEqual([{ dir, why: 'it is owned by uid 65534, not by the running user (uid 0)' }]);
    expect(isAlive(victim)).toBe(true);
    await rm(dir, { recursive: true });
  });
});

describe('the reaper script', () => {
  const script = fileURLToPath(new URL('./reaper.sh', import.meta.url));

  test('once its owner is gone, it ends the server naming the folder exactly, and deletes the folder', async () => {
    const dir = await runFolder('auditbench-r|.*|', null);
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' });
    await once(owner, 'spawn');
    const victim = await sleeper(defaultsFileArg(dir));
    const bystander = await sleeper(defaultsFileArg(path.join(scratch, 'auditbench-rX')));
    const born = String(await startTicksOf(owner.pid as number));
    const reaper = spawn('sh', [script, String(owner.pid), born, dir], { stdio: 'ignore' });
    await sleep(1_500);
    expect(isAlive(victim), 'ended while its owner runs').toBe(true);
    owner.kill('SIGKILL');
    const [code] = await once(reaper, 'exit');
    expect(code).toBe(0);
    expect(await gone(victim)).toBe(true);
    expect(isAlive(bystander)).toBe(true);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
  }, 20_000);
});
