import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * One measuring run per machine. flock(1) holds the lock for a child that lives as long as this process (it polls
 * our pid), so the kernel frees it even when we are SIGKILLed: no stale lock file to clean. Not
 * /tmp/auditbench-measure.lock: people wrap whole runs in that one, and taking it again inside would deadlock.
 */
export async function lockPath(): Promise<string> {
  const shared = '/run/lock';
  if (
    await access(shared, constants.W_OK).then(
      () => true,
      () => false,
    )
  )
    return path.join(shared, 'auditbench.lock');
  const dir = path.join(os.tmpdir(), 'auditbench');
  await mkdir(dir, { recursive: true });
  return path.join(dir, 'run.lock');
}

/**
 * Whether the run that holds the lock is this process or one of its ancestors: a Vitest run nested in a harness
 * test (the secrets session, a DBA's repository's gate) is part of the run that holds it, and must not wait for it.
 */
export async function heldByAncestor(lock?: string): Promise<boolean> {
  lock ??= await lockPath();
  const pid = /^pid (\d+),/.exec(await holder(lock))?.[1];
  if (pid === undefined) return false;
  for (let at = process.pid; at > 1; at = await parentOf(at)) {
    // The holder line outlives its run: an ancestor that merely reuses a finished run's pid holds nothing.
    if (String(at) === pid) return spawnSync('flock', ['-n', '-E', '75', lock, 'true']).status === 75;
  }
  return false;
}

/** A process's parent, from /proc/<pid>/stat (its 4th field, after the parenthesised command name); 0 if gone. */
async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0) || 0;
}

const duration = (s: number) => (s < 120 ? `${s} s` : `${Math.round(s / 60)} min`);
const holderOf = (lock: string) => `${lock}.holder`;

/**
 * Takes the run lock, waiting up to waitS for a run that holds it (saying which, once); rejects naming that run
 * when the wait runs out. Resolves to the function that releases it.
 */
export async function takeRunLock(
  waitS: number,
  say: (line: string) => void,
  lock?: string,
): Promise<() => Promise<void>> {
  lock ??= await lockPath();
  const child = spawn(
    'flock',
    [
      '-w',
      String(waitS),
      '-E',
      '75',
      lock,
      'sh',
      '-c',
      'echo locked; while kill -0 "$1" 2>/dev/null; do sleep 1; done',
      'auditbench-run-lock',
      String(process.pid),
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const locked = new Promise<boolean>((resolve, reject) => {
    child.stdout?.once('data', () => resolve(true));
    child.once('exit', () => resolve(false));
    child.once('error', (error) =>
      reject(new Error(`flock(1) could not be started (${error.message}): install util-linux`)),
    );
  });
  const notice = setTimeout(async () => {
    say(
      `auditbench: waiting for another run to finish (it holds ${lock}: ${await holder(lock)}); at most ${duration(waitS)}`,
    );
  }, 1_000);
  const got = await locked.finally(() => clearTimeout(notice));
  if (!got) {
    throw new Error(
      `another auditbench run still holds ${lock} after ${duration(waitS)} (${await holder(lock)}): let it finish or stop it`,
    );
  }
  child.unref();
  const started = new Date().toISOString();
  await writeFile(
    holderOf(lock),
    `pid ${process.pid}, started ${started}, in ${process.cwd()}: ${process.argv.slice(1).join(' ')}\n`,
    { mode: 0o644 },
  ).catch(() => {});
  return async () => release(child);
}

async function holder(lock: string): Promise<string> {
  return (await readFile(holderOf(lock), 'utf8').catch(() => 'holder unknown')).trim();
}

function release(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
