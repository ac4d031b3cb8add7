import { spawn } from 'node:child_process';
import { lstat, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { mountsUnder } from './mounts.ts';
import { notOwnedWhy } from './owned-path.ts';
import { type OwnerRecord, ownerRunning, readOwnerRecord } from './owner-record.ts';
import { processesWithArg, processState, startTicksOf } from './proc-table.ts';

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

const reaperScript = fileURLToPath(new URL('./reaper.sh', import.meta.url));

/** The argument that names a run's server: exactly this, compared as a whole string, never as a pattern. */
export const defaultsFileArg = (dir: string): string => `--defaults-file=${dir}/my.cnf`;
/** The argument that names a folder's syslog receiver (rsyslogd -f …, src/servers/syslog-receiver.ts). */
export const receiverConfigArg = (dir: string): string => `${dir}/syslog/rsyslog.conf`;

/**
 * Starts a detached watchdog (reaper.sh) that outlives this process: once this process is gone (even by SIGKILL) and
 * the folder still exists, it ends the processes whose argv names the folder's my.cnf, unmounts, and deletes it.
 */
export async function startReaper(dir: string): Promise<void> {
  // mountinfo escapes some characters and the script compares raw fields: a folder holding one is refused here.
  if (!/^[A-Za-z0-9_./-]+$/.test(dir)) {
    throw new Error(
      `The run's folder ${JSON.stringify(dir)} holds characters other than letters, digits and _ . / -: set TMPDIR to a plain path`,
    );
  }
  const born = await startTicksOf(process.pid);
  const child = spawn('sh', [reaperScript, String(process.pid), born === null ? '' : String(born), dir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
}

/** A stale run's folder that was removed, with the processes that named its my.cnf and were ended. */
export interface SweptRun {
  dir: string;
  endedPids: number[];
}

/** What a sweep did: folders removed, and auditbench-* folders left alone with why. */
export interface SweepOutcome {
  removed: SweptRun[];
  left: { dir: string; why: string }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends the processes whose argv names the folder's my.cnf exactly and that started no earlier than the recorded
 * owner (a process older than the run cannot be one of its servers); waits up to 5 s for them to be gone.
 */
async function endServers(dir: string, record: OwnerRecord): Promise<number[]> {
  const since = record.owner.startTicks;
  const receivers = await processesWithArg(receiverConfigArg(dir));
  const victims = [...(await processesWithArg(defaultsFileArg(dir))), ...receivers].filter(
    (p) => since === null || (p.startTicks !== null && p.startTicks >= since),
  );
  for (const { pid } of victims) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  for (let waitedMs = 0; waitedMs < 5_000; waitedMs += 100) {
    const states = await Promise.all(victims.map((p) => processState(p.pid)));
    if (states.every((state) => !state.running)) break;
    await sleep(100);
  }
  return victims.map((p) => p.pid);
}

/** Thaws and lazily unmounts the fault phase's filesystems under a folder, so rm never crosses into one. */
async function releaseMounts(dir: string, step: 'thaw' | 'unmount'): Promise<void> {
  for (const mount of await mountsUnder(dir)) {
    const [file, args] = step === 'thaw' ? ['fsfreeze', ['-u', mount]] : ['umount', ['-l', mount]];
    await execa(file, args, { reject: false });
  }
}

/**
 * Removes the folders (and ends the servers) of runs killed before their reaper could act. A folder is a stale run
 * only if it is ours (owned by the running user, writable by no one else, not a symlink), holds an owner record,
 * and its recorded owner no longer runs (same pid and start time). Another user's folder is never touched.
 */
export async function sweepStale(
  tmpDir = os.tmpdir(),
  say: (line: string) => void = (line) => process.stderr.write(`auditbench: ${line}\n`),
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { removed: [], left: [] };
  for (const name of await readdir(tmpDir)) {
    if (!name.startsWith(tempPrefix)) continue;
    const dir = path.join(tmpDir, name);
    const info = await lstat(dir).catch(() => null);
    const why = info && notOwnedWhy(info, 'folder');
    if (why) {
      outcome.left.push({ dir, why });
      continue;
    }
    const record = await readOwnerRecord(dir);
    if (!record || (await ownerRunning(record))) continue;
    await releaseMounts(dir, 'thaw');
    const endedPids = await endServers(dir, record);
    await releaseMounts(dir, 'unmount');
    await rm(dir, { recursive: true, force: true });
    outcome.removed.push({ dir, endedPids });
    const ended = endedPids.length > 0 ? `, ended pid ${endedPids.join(', ')}` : '';
    say(`removed the stale run folder ${dir} (its owner, pid ${record.owner.pid}, is gone${ended})`);
  }
  return outcome;
}
