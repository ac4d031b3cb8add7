import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { ServerFlavor } from './started-server.ts';

export interface ServerBinary {
  path: string;
  flavor: ServerFlavor;
  /** Version from `--version`, e.g. 10.11.19-MariaDB-0+deb12u1. */
  version: string;
}

const candidates = ['mariadbd', 'mysqld'];
// Debian and RPM installs keep the server out of a normal user's PATH.
const extraDirs = ['/usr/sbin', '/usr/libexec', '/usr/local/mysql/bin'];

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function searchPath(searchDirs: string[]): Promise<string | null> {
  for (const name of candidates) {
    for (const dir of searchDirs) {
      const file = path.join(dir, name);
      if (await isExecutable(file)) return file;
    }
  }
  return null;
}

// A server names itself mysqld or mariadbd (MySQL with its full path); clients, mariadb-admin and friends say
// 'Distrib' or use another name, and MySQL 8's client line is otherwise the same as its server's.
const serverName = /^(.*\/)?(mysqld|mariadbd)([-_.][\w.-]*)?$/;

/** Reads flavor and version from `mysqld --version` ("mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu"). */
export function parseVersionLine(line: string): { flavor: ServerFlavor; version: string } {
  const match = /\bVer\s+(\S+)/.exec(line);
  if (!match?.[1]) throw new Error(`Cannot read a server version from '${line.trim()}'`);
  const program = line.trim().split(/\s+/, 1)[0] ?? '';
  if (!serverName.test(program) || /\bDistrib\b/.test(line)) {
    throw new Error(`'${line.trim()}' is not a server's version line: this is a client or another tool`);
  }
  const version = match[1];
  const lower = line.toLowerCase();
  const flavor: ServerFlavor = lower.includes('mariadb')
    ? 'mariadb'
    : lower.includes('percona')
      ? 'percona'
      : 'mysql';
  return { flavor, version };
}

// A binary that hangs on --version (a wrapper waiting for input, a stuck NFS mount) must not hang the run.
const VERSION_PROBE_MS = 10_000;

/** Finds the server binary: the configured path, else mariadbd or mysqld on PATH or in the usual sbin dirs. */
export async function findServerBinary(
  configured: string | null,
  envPath = '',
  probeMs = VERSION_PROBE_MS,
): Promise<ServerBinary> {
  let file: string | null;
  if (configured) {
    if (!(await isExecutable(configured))) {
      throw new Error(
        `AUDITBENCH_MYSQLD points to '${configured}', which is not an executable file: fix the path or unset it`,
      );
    }
    file = configured;
  } else {
    file = await searchPath([...envPath.split(path.delimiter).filter(Boolean), ...extraDirs]);
    if (!file) {
      throw new Error(
        'No mariadbd or mysqld found on PATH or in /usr/sbin: install one (apt-get install mariadb-server) or set AUDITBENCH_MYSQLD',
      );
    }
  }
  const which = configured ? `AUDITBENCH_MYSQLD '${configured}'` : `'${file}'`;
  const probe = await execa(file, ['--version'], {
    reject: false,
    stdin: 'ignore',
    timeout: probeMs,
  });
  if (probe.timedOut) {
    throw new Error(
      `${which} did not answer --version within ${probeMs / 1000} s: point AUDITBENCH_MYSQLD at mariadbd or mysqld`,
    );
  }
  try {
    if (probe.exitCode !== 0)
      throw new Error(
        probe.exitCode === undefined
          ? `it could not be run (${probe.code ?? probe.signal ?? 'no exit code'})`
          : `--version exited with ${probe.exitCode}`,
      );
    return { path: file, ...parseVersionLine(String(probe.stdout)) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${which} is not a MySQL or MariaDB server (${why}): point AUDITBENCH_MYSQLD at mariadbd or mysqld, usually in /usr/sbin`,
    );
  }
}
