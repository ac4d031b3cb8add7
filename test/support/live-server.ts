import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { serverOsUser } from '../../src/servers/server-account.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { listeningAddresses } from './listening.ts';

// A live server beside a run (suites/pack-install.suite.ts, suites/beside-production.suite.ts): a second mariadbd
// standing for production, the lines of a DBA's production option file aimed at it, and what is compared before and
// after a run from that file.

export interface LiveFacts {
  pid: string;
  socketInode: number;
  pidFile: string;
  errorLog: string;
  datadirFiles: string[];
  auditLog: Buffer;
}

/** Where the live server keeps what a run beside it must leave alone. */
export interface LivePaths {
  datadir: string;
  socket: string;
  pidFile: string;
  errorLog: string;
  auditLog: string;
}

export interface LiveServer {
  server: StartedServer;
  /** The DBA's folder: the option file, the configuration, the reports. */
  scratch: string;
  where: LivePaths;
  facts(): Promise<LiveFacts>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => path.join(e.parentPath, e.name)).sort();
}

/** A second mariadbd that stands for production: a marker row, server_audit writing to a /var/log/mysql stand-in. */
export async function startLive(config: Environment & { target: 'local' }): Promise<LiveServer> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'beside-production-'));
  // The live server's OS user reaches its log folder inside, as mysql reaches /var/log/mysql.
  await chmod(scratch, 0o755);
  const live = await startServer(config);
  // The folder that stands for /var/log/mysql: the live server's own audit trail goes there.
  const logDir = path.join(scratch, 'var-log-mysql');
  await mkdir(logDir);
  const user = await serverOsUser();
  if (user) await chown(logDir, user.uid, user.gid);
  const auditLog = path.join(logDir, 'audit.log');
  for (const statement of [
    "INSTALL SONAME 'server_audit'",
    `SET GLOBAL server_audit_file_path = '${auditLog}'`,
    "SET GLOBAL server_audit_events = 'CONNECT,QUERY_DDL'",
    'SET GLOBAL server_audit_logging = ON',
    'CREATE DATABASE production',
    'CREATE TABLE production.marker (id INT PRIMARY KEY, note VARCHAR(40))',
    "INSERT INTO production.marker VALUES (1, 'the live server')",
  ])
    await live.query(statement);
  const row = (
    await live.query(
      'SELECT @@datadir AS datadir, @@socket AS socket, @@pid_file AS pidFile, @@log_error AS errorLog',
    )
  ).rows[0] as Record<string, string>;
  const where: LivePaths = {
    datadir: row.datadir as string,
    socket: row.socket as string,
    pidFile: row.pidFile as string,
    errorLog: path.resolve(row.datadir as string, row.errorLog as string),
    auditLog,
  };
  return {
    server: live,
    scratch,
    where,
    facts: async () => ({
      pid: (await readFile(where.pidFile, 'utf8')).trim(),
      socketInode: (await stat(where.socket)).ino,
      pidFile: where.pidFile,
      errorLog: await readFile(where.errorLog, 'utf8'),
      datadirFiles: await filesUnder(where.datadir),
      auditLog: await readFile(where.auditLog),
    }),
    async [Symbol.asyncDispose]() {
      await live[Symbol.asyncDispose]();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * The lines of a DBA's production option file that aim at the live server: its datadir, socket, port, pid file and
 * error log, every interface, and its audit log. Appended to a run's option file.
 */
export function productionLines(live: LiveServer): string {
  const { where } = live;
  return [
    '[mysqld]',
    `datadir = ${where.datadir}`,
    `socket = ${where.socket}`,
    `port = ${live.server.connection.port}`,
    'bind-address = 0.0.0.0',
    `pid-file = ${where.pidFile}`,
    `log-error = ${where.errorLog}`,
    'character-set-server = utf8mb4',
    '[mariadb]',
    `server_audit_file_path = ${where.auditLog}`,
    '',
  ].join('\n');
}

/** The options of `productionLines` a run leaves out, by name. */
export const leftOutByName = ['datadir', 'socket', 'port', 'bind-address', 'pid-file', 'log-error'];

/** The addresses servers other than the live one listen on, read from /proc/net/tcp* every half second. */
export function watchListening(livePid: string): { stop(): string[] } {
  const listening: string[] = [];
  const watch = setInterval(() => {
    void listeningAddresses({ exceptPid: Number(livePid) }).then((found) => listening.push(...found));
  }, 500);
  return {
    stop() {
      clearInterval(watch);
      return [...new Set(listening)];
    },
  };
}

const shown = (facts: LiveFacts) =>
  `pid ${facts.pid}, socket inode ${facts.socketInode}, error log ${facts.errorLog.length} bytes, ${facts.datadirFiles.length} datadir entries, audit log ${facts.auditLog.length} bytes`;

/** The live server as it was: the same process, socket, files and logs; the run's server on loopback only. */
export async function expectLiveUnchanged(live: LiveServer, before: LiveFacts, listening: string[]) {
  const after = await live.facts();
  console.log(`[live server] before: ${shown(before)}`);
  console.log(`[live server] after:  ${shown(after)}`);
  console.log(`[live server] the run's servers listened on: ${listening.join(', ') || 'nothing seen'}`);
  expect(after.pid).toBe(before.pid);
  expect(after.socketInode).toBe(before.socketInode);
  expect(existsSync(before.pidFile)).toBe(true);
  expect(after.errorLog).toBe(before.errorLog);
  expect(after.datadirFiles).toEqual(before.datadirFiles);
  expect(after.auditLog.equals(before.auditLog)).toBe(true);
  expect(listening.length).toBeGreaterThan(0);
  expect(listening.every((address) => address.startsWith('127.0.0.1:'))).toBe(true);
  // Read last: this query is the live server's first connection since the first reading.
  expect((await live.server.query('SELECT note FROM production.marker WHERE id = 1')).rows).toEqual([
    { note: 'the live server' },
  ]);
}
