import { execFileSync } from 'node:child_process';
import { chown, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { registerCleanup, tempPrefix } from '../servers/cleanup.ts';
import { serverOsUser } from '../servers/server-account.ts';

/** A small ext4 the harness made for one plugin's log, loop-mounted inside that server's datadir. */
export interface FaultFs {
  /** The mount point, relative to the datadir: the plugin's log goes in here. */
  dir: string;
  mountPoint: string;
  /** Writes a filler file until the filesystem has no block left. */
  fill(): Promise<void>;
  /** Deletes the filler. */
  free(): Promise<void>;
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  /** Remounts read-only (writable again with `false`). */
  setReadOnly(readOnly: boolean): Promise<void>;
  /** Thaws, unmounts (lazily when the server still holds a file open) and deletes the image. Idempotent. */
  remove(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const FILLERS = ['filler.1m', 'filler.4k'];

/** Why the fault phase cannot run here, or null: it mounts filesystems, so only root may. */
export function faultFsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'the fault phase mounts a filesystem of its own: run as root';
  return null;
}

/**
 * The datadir must be inside one of the harness's own temp dirs, so a filled or frozen filesystem can never be the
 * machine's own and the reaper (src/servers/cleanup.ts) finds the mount.
 */
export function privateRoot(datadir: string, tmpDir = os.tmpdir()): string {
  const root = path.dirname(path.resolve(datadir));
  if (path.dirname(root) !== path.resolve(tmpDir) || !path.basename(root).startsWith(tempPrefix)) {
    throw new Error(
      `The fault phase mounts only inside the harness's own temp dir (${tmpDir}/${tempPrefix}*), and this server's datadir is ${datadir}: run it on the local target`,
    );
  }
  return root;
}

const run = (file: string, args: string[]) => execa(file, args, { timeout: 30_000 });

/** Creates, formats and mounts an ext4 of `sizeMiB` at `<datadir>/<dir>`, owned by the server's OS user. */
export async function mountFaultFs(datadir: string, dir: string, sizeMiB: number): Promise<FaultFs> {
  const unavailable = faultFsUnavailable();
  if (unavailable) throw new Error(unavailable);
  const root = privateRoot(datadir);
  const image = path.join(root, `${dir}.img`);
  const mountPoint = path.join(datadir, dir);
  await run('truncate', ['-s', `${sizeMiB}M`, image]);
  // No reserved blocks: the server's OS user fills it as far as root would.
  await run('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
  await mkdir(mountPoint, { recursive: true });
  await run('mount', ['-o', 'loop', image, mountPoint]);
  let frozen = false;
  let removed = false;
  const thawNow = () => {
    // Synchronous, so a signal's cleanup thaws before anything can block on the frozen filesystem.
    if (frozen) execFileSync('fsfreeze', ['-u', mountPoint], { stdio: 'ignore' });
    frozen = false;
  };
  async function remove(): Promise<void> {
    thawNow();
    if (removed) return;
    removed = true;
    unregister();
    const plain = await execa('umount', [mountPoint], { reject: false });
    if (plain.exitCode !== 0) await execa('umount', ['-l', mountPoint], { reject: false });
    await rm(image, { force: true });
  }
  const unregister = registerCleanup(async () => {
    thawNow();
    await remove();
  });
  const user = await serverOsUser();
  if (user) await chown(mountPoint, user.uid, user.gid);
  return {
    dir,
    mountPoint,
    async fill() {
      // dd ends with ENOSPC, which is the point; the second pass takes the blocks a 1 MiB write could not.
      for (const [name, bs] of [
        [FILLERS[0], '1M'],
        [FILLERS[1], '4k'],
      ] as const) {
        await execa('dd', ['if=/dev/zero', `of=${path.join(mountPoint, String(name))}`, `bs=${bs}`], {
          reject: false,
        });
      }
    },
    async free() {
      for (const name of FILLERS) await rm(path.join(mountPoint, name), { force: true });
    },
    async freeze() {
      frozen = true;
      await run('fsfreeze', ['-f', mountPoint]);
    },
    async thaw() {
      thawNow();
    },
    async setReadOnly(readOnly: boolean) {
      await run('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'}`, mountPoint]);
    },
    remove,
    [Symbol.asyncDispose]: remove,
  };
}

/** Whether a file name is one of the filler files (not a log). */
export const isFiller = (name: string): boolean => FILLERS.includes(path.basename(name));
