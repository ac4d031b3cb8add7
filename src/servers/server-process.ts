import { access } from 'node:fs/promises';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { type Clock, realClock } from '../clock/clock.ts';
import { canConnect } from './sql-session.ts';
import type { ConnectionOptions } from './started-server.ts';

/** A running mysqld/mariadbd child and a promise that settles when it exits. */
export interface ServerProcess {
  child: ResultPromise;
  exited: Promise<{ code: number | null; signal: string | null }>;
  hasExited(): boolean;
}

/** A program the server runs under (valgrind for the counted channel): `command args… binary --defaults-file=…`. */
export interface LaunchWrapper {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export function launch(binary: string, myCnf: string, wrapper?: LaunchWrapper): ServerProcess {
  const [file, args] = wrapper
    ? [wrapper.command, [...wrapper.args, binary, `--defaults-file=${myCnf}`]]
    : [binary, [`--defaults-file=${myCnf}`]];
  // Own process group: a terminal Ctrl-C reaches the harness, which then stops the server in order.
  const child = execa(file, args, {
    ...(wrapper?.env ? { env: wrapper.env } : {}),
    detached: true,
    stdio: 'ignore',
    reject: false,
    cleanup: true,
  });
  let done = false;
  const exited = child.then((result) => {
    done = true;
    return { code: result.exitCode ?? null, signal: result.signal ?? null };
  });
  return { child, exited, hasExited: () => done };
}

export type ReadyOutcome = { ready: true } | { ready: false; why: string };

/** Polls until the server accepts connections, exits, or the deadline passes; then checks it stays up a moment. */
export async function waitUntilReady(
  server: ServerProcess,
  connection: ConnectionOptions,
  timeoutMs: number,
  clock: Clock = realClock,
): Promise<ReadyOutcome> {
  const deadline = clock.nowMs() + timeoutMs;
  while (clock.nowMs() < deadline) {
    if (server.hasExited()) return { ready: false, why: await exitReason(server) };
    if (await canConnect(connection)) {
      // A plugin that crashes the server right after start (the seed's endless-restart case) shows up here.
      await clock.sleepMs(500);
      if (server.hasExited()) return { ready: false, why: `started, then ${await exitReason(server)}` };
      return { ready: true };
    }
    await clock.sleepMs(200);
  }
  return { ready: false, why: `did not accept connections within ${Math.round(timeoutMs / 1000)} s` };
}

async function exitReason(server: ServerProcess): Promise<string> {
  const { code, signal } = await server.exited;
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/** SIGTERM (a clean InnoDB shutdown), then SIGKILL if it has not exited within graceMs. */
export async function stopProcess(server: ServerProcess, graceMs = 60_000): Promise<void> {
  if (server.hasExited()) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
  await server.exited;
  clearTimeout(timer);
}

export async function killProcess(server: ServerProcess): Promise<void> {
  if (server.hasExited()) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Finds the datadir initialiser that ships with a MariaDB server binary. */
export async function findInstallDb(binary: string, searchPath: string): Promise<string> {
  const dirs = [
    path.dirname(binary),
    ...searchPath.split(path.delimiter).filter(Boolean),
    '/usr/bin',
    '/usr/local/bin',
  ];
  for (const dir of dirs) {
    for (const name of ['mariadb-install-db', 'mysql_install_db']) {
      const file = path.join(dir, name);
      if (
        await access(file).then(
          () => true,
          () => false,
        )
      )
        return file;
    }
  }
  throw new Error(
    `No mariadb-install-db found next to ${binary} or on PATH: install the full server package`,
  );
}
