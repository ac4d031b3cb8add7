import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/** Prefix of every private temp dir a local server lives in. */
export const tempPrefix = 'auditbench-';

type Stopper = () => Promise<void>;
const live = new Set<Stopper>();
let handlersInstalled = false;

/** Remembers how to stop something; the returned function forgets it again. */
export function registerCleanup(stop: Stopper): () => void {
  installSignalHandlers();
  live.add(stop);
  return () => live.delete(stop);
}

export async function stopAll(): Promise<void> {
  const stoppers = [...live];
  live.clear();
  await Promise.allSettled(stoppers.map((stop) => stop()));
}

function installSignalHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      // Stop what we started, then die of the same signal so the parent sees why.
      void stopAll().finally(() => process.kill(process.pid, signal));
    });
  }
}

// The fault phase (src/faults) loop-mounts filesystems inside the temp dir: thawed before the server is stopped (a
// frozen write would hold it), unmounted after it (lazily if still busy), so rm never crosses into a mount.
const mountsUnder = `findmnt -rn -o TARGET | grep -F -- "$2/"`;
const thawMounts = `${mountsUnder} | while read -r m; do fsfreeze -u "$m" 2>/dev/null; done`;
const unmountAll = `${mountsUnder} | sort -r | while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done`;

/**
 * Starts a detached watchdog that outlives this process: once this process is gone (even by SIGKILL) and the
 * temp dir still exists, it kills the server started with that dir's my.cnf and deletes the dir.
 */
export function startReaper(dir: string): void {
  const script = `
    while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 1; done
    [ -d "$2" ] || exit 0
    ${thawMounts}
    pkill -TERM -f -- "--defaults-file=$2/my.cnf"
    for i in 1 2 3 4 5 6 7 8 9 10; do pgrep -f -- "--defaults-file=$2/my.cnf" >/dev/null || break; sleep 1; done
    pkill -KILL -f -- "--defaults-file=$2/my.cnf"
    ${unmountAll}
    rm -rf -- "$2"`;
  const child = spawn('sh', ['-c', script, 'auditbench-reaper', String(process.pid), dir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
}

/** Whether a process exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes temp dirs (and their servers) left by runs that were killed before their reaper could act. */
export async function sweepStale(tmpDir = os.tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(tmpDir)) {
    if (!name.startsWith(tempPrefix)) continue;
    const dir = path.join(tmpDir, name);
    const owner = Number(await readFile(path.join(dir, 'owner.pid'), 'utf8').catch(() => 'NaN'));
    if (!Number.isInteger(owner) || isAlive(owner)) continue;
    const mounts = `findmnt -rn -o TARGET | grep -F -- "$1/"`;
    await execa('sh', ['-c', `${mounts} | while read -r m; do fsfreeze -u "$m"; done`, 'sh', dir], {
      reject: false,
    });
    await execa('pkill', ['-KILL', '-f', '--', `--defaults-file=${dir}/my.cnf`], { reject: false });
    await execa('sh', ['-c', `${mounts} | while read -r m; do umount -l "$m"; done`, 'sh', dir], {
      reject: false,
    });
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
