import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';

/** The running user's uid (a platform without uids has none, so nothing on disk is taken as ours). */
export const runningUid = (): number => process.getuid?.() ?? -1;

/**
 * Why a path found on disk is not this user's to act on, or null when it is: not a symlink, of the kind expected,
 * owned by the running user, and writable by nobody else (a group or world write bit lets another user plant files).
 */
export function notOwnedWhy(info: Stats, kind: 'folder' | 'file', uid = runningUid()): string | null {
  if (info.isSymbolicLink()) return 'it is a symlink';
  if (kind === 'folder' ? !info.isDirectory() : !info.isFile()) return `it is not a ${kind}`;
  if (info.uid !== uid) return `it is owned by uid ${info.uid}, not by the running user (uid ${uid})`;
  if ((info.mode & 0o022) !== 0) {
    return `it is writable by ${info.mode & 0o002 ? 'every user' : 'its group'} (mode ${(info.mode & 0o777).toString(8)})`;
  }
  return null;
}

/** notOwnedWhy for a path, read with lstat so a symlink is seen as one; 'it does not exist' when missing. */
export async function pathNotOwnedWhy(file: string, kind: 'folder' | 'file'): Promise<string | null> {
  const info = await lstat(file).catch(() => null);
  return info === null ? 'it does not exist' : notOwnedWhy(info, kind);
}
