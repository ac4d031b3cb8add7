import { chown, lchown, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { applyEdit, renderMyCnf, type ServerOptions } from './my-cnf.ts';
import { initSql, type ServerOsUser } from './server-account.ts';
import type { ServerBinary } from './server-binary.ts';
import { findInstallDb, launch, stopProcess, waitUntilReady } from './server-process.ts';
import type { ConnectionOptions } from './started-server.ts';
import { tailLines } from './tail.ts';

/** Where a local server's files live: all inside one private temp dir. */
export interface Paths {
  dir: string;
  datadir: string;
  myCnf: string;
  errorLog: string;
  /** secure_file_priv: the only folder LOAD DATA, SELECT … INTO OUTFILE and LOAD_FILE may touch. */
  files: string;
}

export function privatePaths(dir: string): Paths {
  return {
    dir,
    datadir: path.join(dir, 'data'),
    myCnf: path.join(dir, 'my.cnf'),
    errorLog: path.join(dir, 'error.log'),
    files: path.join(dir, 'files'),
  };
}

/** Options every local server gets: loopback only, its own socket, no client-side file reads, no OS root. */
export function baseOptions(
  binary: ServerBinary,
  paths: Paths,
  port: number,
  osUser: ServerOsUser | null,
): ServerOptions {
  const options: ServerOptions = new Map<string, string | null>([
    ['datadir', paths.datadir],
    ['socket', path.join(paths.dir, 'mysqld.sock')],
    ['port', String(port)],
    ['bind_address', '127.0.0.1'],
    ['pid_file', path.join(paths.dir, 'mysqld.pid')],
    ['log_error', paths.errorLog],
    ['tmpdir', paths.dir],
    ['skip_name_resolve', null],
    ['local_infile', '0'],
    ['secure_file_priv', paths.files],
  ]);
  if (osUser) options.set('user', osUser.name);
  if (binary.flavor !== 'mariadb') options.set('mysqlx', 'OFF');
  return options;
}

/** Hands the private dir to the server's OS user (only when we are root and it is another user). */
export async function chownTree(dir: string, osUser: ServerOsUser | null): Promise<void> {
  if (!osUser) return;
  await chown(dir, osUser.uid, osUser.gid);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    // lchown: a plugin dir holds symlinks to the system's libraries, which stay root's.
    await lchown(file, osUser.uid, osUser.gid);
  }
}

export async function initialiseDatadir(
  binary: ServerBinary,
  paths: Paths,
  searchPath: string,
): Promise<void> {
  const args = [`--defaults-file=${paths.myCnf}`];
  const command =
    binary.flavor === 'mariadb'
      ? {
          file: await findInstallDb(binary.path, searchPath),
          args: [...args, '--auth-root-authentication-method=normal', '--skip-test-db'],
        }
      : { file: binary.path, args: [...args, '--initialize-insecure'] };
  const result = await execa(command.file, command.args, { reject: false, all: true, timeout: 120_000 });
  if (result.exitCode !== 0) {
    const log = await readFile(paths.errorLog, 'utf8').catch(() => '');
    const how = result.timedOut ? 'did not finish within 120 s' : `failed (exit ${result.exitCode})`;
    throw new Error(
      `Initialising a datadir with ${command.file} ${how}:\n${tailLines(`${result.all ?? ''}\n${log}`, 20)}`,
    );
  }
}

/**
 * Gives root the run's password before anything can connect: one start with networking off and an init file
 * (read by the server itself, so the password is on no command line), then a clean stop. No plugin is loaded
 * yet, so no audit or general log can record the statement.
 */
export async function setRootPassword(opts: {
  binary: ServerBinary;
  paths: Paths;
  /** The server's options before any of the run's, plugins included. */
  base: ServerOptions;
  /** root's account with the new password. */
  root: ConnectionOptions;
  osUser: ServerOsUser | null;
  timeoutMs: number;
}): Promise<void> {
  const { binary, paths, base, root, osUser, timeoutMs } = opts;
  const initFile = path.join(paths.dir, 'init.sql');
  await writeFile(initFile, initSql(binary.flavor, root.password), { mode: 0o600 });
  try {
    if (osUser) await chown(initFile, osUser.uid, osUser.gid);
    const options = applyEdit(base, { set: { skip_networking: null, init_file: initFile } });
    await writeFile(paths.myCnf, renderMyCnf(options));
    const proc = launch(binary.path, paths.myCnf);
    const outcome = await waitUntilReady(proc, root, timeoutMs);
    await stopProcess(proc, 30_000);
    if (!outcome.ready) {
      const log = await readFile(paths.errorLog, 'utf8').catch(() => '');
      throw new Error(
        `Setting the root password of a new ${binary.flavor} server ${outcome.why}. Error log tail:\n${tailLines(log, 25)}`,
      );
    }
  } finally {
    await rm(initFile, { force: true });
  }
}
