import type { Buffer } from 'node:buffer';
import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveInDatadir } from './datadir-path.ts';
import type { SqlSession } from './sql-session.ts';
import type { ServerFile } from './started-server.ts';

export type Locality = { local: true; datadir: string; pidFile: string } | { local: false; why: string };

/**
 * Whether a server we only know by its address keeps its datadir on this machine: the pid in its pid file must
 * be a local process whose working directory is the datadir (mysqld and mariadbd chdir there). A server in a
 * container, or on a port forwarded from elsewhere, fails this even when a same-named folder exists here.
 */
export async function locate(session: SqlSession): Promise<Locality> {
  const { rows } = await session.query('SELECT @@datadir AS datadir, @@pid_file AS pidFile');
  const datadir = String(rows[0]?.datadir ?? '');
  const pidFile = path.resolve(datadir, String(rows[0]?.pidFile ?? ''));
  try {
    const pid = (await readFile(pidFile, 'utf8')).trim();
    const cwd = await realpath(`/proc/${pid}/cwd`);
    if (cwd === (await realpath(datadir))) return { local: true, datadir: cwd, pidFile };
  } catch {
    // Not readable from here: treated as not local.
  }
  return {
    local: false,
    why: `its datadir ${datadir} is not on this machine (no process here runs there with pid file ${pidFile})`,
  };
}

export async function listLocalFiles(datadir: string, dir: string): Promise<ServerFile[]> {
  const base = resolveInDatadir(datadir, dir);
  // A folder that does not exist holds no files (a plugin's log folder the server could not create, say).
  const entries = await readdir(base, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const files = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        // A plugin rotating its log renames the file between the listing and this stat: it is gone, not an error.
        const info = await stat(path.join(base, entry.name)).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null;
          throw e;
        });
        return (
          info && {
            name: path.join(dir, entry.name),
            sizeBytes: info.size,
            fileId: `${info.dev}:${info.ino}`,
          }
        );
      }),
  );
  return files.filter((f) => f !== null);
}

/** A file in the datadir; a path outside it rejects (never throws synchronously: callers await a promise). */
export async function readLocalFile(datadir: string, file: string): Promise<Buffer> {
  return readFile(resolveInDatadir(datadir, file));
}

export async function fileExists(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** The end of a file that may be large (a long-lived server's error log), as text. */
export async function readFileTail(file: string, maxBytes = 64_000): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const { buffer } = await handle.read({ buffer: new Uint8Array(length), position: size - length });
    return new TextDecoder().decode(buffer);
  } finally {
    await handle.close();
  }
}
