import { access, chown, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { registerCleanup } from '../servers/cleanup.ts';
import { mountsUnder } from '../servers/mounts.ts';
import { serverOsUser } from '../servers/server-account.ts';
import { privateRoot } from './fault-fs.ts';

/**
 * The slow log filesystem (test/slow-fs/slow_fs.c) mounted inside a local server's datadir: a FUSE passthrough of a
 * folder beside the datadir that waits `delayMs` (to the microsecond) before each write. It models a synchronous or network filesystem;
 * a local disk does not delay a buffered write().
 */
export interface SlowFs {
  /** The mount point, relative to the datadir: the plugin's log goes in here. */
  dir: string;
  mountPoint: string;
  delayMs: number;
  /** Unmounts (lazily when the server still holds a file open), ends the daemon and deletes the folder behind it. Idempotent. */
  remove(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Why the slow filesystem cannot be mounted here, or null: root (allow_other, the server's own user) and /dev/fuse. */
export async function slowFsUnavailable(): Promise<string | null> {
  if (process.getuid?.() !== 0)
    return 'the slow log filesystem is a FUSE mount the server user must reach: run as root';
  const fuse = await access('/dev/fuse').then(
    () => true,
    () => false,
  );
  return fuse
    ? null
    : 'no /dev/fuse here (a container needs --device /dev/fuse): the slow log filesystem cannot mount';
}

const MOUNT_WAIT_MS = 10_000;
const EXIT_WAIT_MS = 5_000;

const isMounted = async (mountPoint: string): Promise<boolean> =>
  (await mountsUnder(mountPoint)).includes(mountPoint);

/**
 * Mounts `binary` (slow_fs, built from test/slow-fs/slow_fs.c) at `<datadir>/<dir>`, over `<private root>/<dir>.backing`,
 * owned by the server's OS user. Mounted only inside the harness's own temp dir, so the reaper and the stale sweep
 * (src/servers/cleanup.ts) unmount it after a SIGKILL; the daemon ends by itself once unmounted.
 */
export async function mountSlowFs(
  binary: string,
  datadir: string,
  dir: string,
  delayMs: number,
): Promise<SlowFs> {
  const unavailable = await slowFsUnavailable();
  if (unavailable) throw new Error(unavailable);
  if (!/^[a-z_]+$/.test(dir))
    throw new Error(`The slow filesystem's folder must be letters and _, got '${dir}'`);
  const backing = path.join(privateRoot(datadir), `${dir}.backing`);
  const mountPoint = path.join(datadir, dir);
  await mkdir(backing, { recursive: true });
  await mkdir(mountPoint, { recursive: true });
  const user = await serverOsUser();
  if (user) await chown(backing, user.uid, user.gid);
  // -f: the daemon stays this process's child, so it can be waited for and, if it hangs, killed.
  const daemon = execa(
    binary,
    [
      backing,
      String(Math.round(delayMs * 1000)),
      mountPoint,
      '-f',
      '-o',
      'allow_other,default_permissions,fsname=auditbench-slowfs',
    ],
    { reject: false, stdin: 'ignore' },
  );
  let removed = false;
  async function remove(): Promise<void> {
    if (removed) return;
    removed = true;
    unregister();
    if (await isMounted(mountPoint)) {
      const plain = await execa('umount', [mountPoint], { reject: false });
      if (plain.exitCode !== 0) await execa('umount', ['-l', mountPoint], { reject: false });
    }
    const exited = await Promise.race([daemon.then(() => true), sleep(EXIT_WAIT_MS).then(() => false)]);
    if (!exited) daemon.kill('SIGKILL');
    await daemon;
    await rm(backing, { recursive: true, force: true });
  }
  const unregister = registerCleanup(remove);
  for (let waitedMs = 0; !(await isMounted(mountPoint)); waitedMs += 50) {
    if (daemon.exitCode !== null || waitedMs > MOUNT_WAIT_MS) {
      await remove();
      const { stderr, exitCode } = await daemon;
      throw new Error(
        `The slow log filesystem did not mount at ${mountPoint} (${binary} exited ${exitCode ?? 'not at all'}): ${String(stderr).trim() || 'no message'}`,
      );
    }
    await sleep(50);
  }
  return { dir, mountPoint, delayMs, remove, [Symbol.asyncDispose]: remove };
}
