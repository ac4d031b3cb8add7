import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { resultsFileSchema } from '../../src/results/schema.ts';
import { serverOsUser } from '../../src/servers/server-account.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { dbaEnv } from '../../test/support/dba-repo.ts';
import { listeningAddresses } from '../../test/support/listening.ts';

// The live server of suites/beside-production.suite.ts, the DBA's folder beside it, `auditbench bench` run from that
// folder, and what is compared before and after.

const launcher = fileURLToPath(new URL('../../auditbench', import.meta.url));

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

/** The DBA's whole production option file, aimed at the live server and open on every interface, and a run on it. */
export async function writeProductionRun(live: LiveServer): Promise<void> {
  const { where, scratch } = live;
  const cnf = [
    '[mysqld]',
    `datadir = ${where.datadir}`,
    `socket = ${where.socket}`,
    `port = ${live.server.connection.port}`,
    'bind-address = 0.0.0.0',
    `pid-file = ${where.pidFile}`,
    `log-error = ${where.errorLog}`,
    'character-set-server = utf8mb4',
    '[mariadb]',
    'server_audit_events = CONNECT,QUERY_DDL',
    `server_audit_file_path = ${where.auditLog}`,
    '',
  ];
  await writeFile(path.join(scratch, 'prod.cnf'), cnf.join('\n'));
  const run = `{ id: 'production', plugin: 'server_audit', cnf: { kind: 'option-file', path: 'prod.cnf' }, traffic: { added: { connectionsPerS: 20 } } }`;
  await writeFile(path.join(scratch, 'auditbench.config.ts'), `export default { runs: [${run}] };\n`);
}

/** `auditbench bench` in the DBA's folder, and the addresses the run's server listened on (the live one's excluded). */
export async function benchBeside(
  live: LiveServer,
  livePid: string,
): Promise<{ all: string; exitCode: number | undefined; listening: string[] }> {
  const listening: string[] = [];
  const bench = execa(launcher, ['bench'], {
    cwd: live.scratch,
    all: true,
    reject: false,
    timeout: 600_000,
    // This run's own AUDITBENCH_CONFIG and report dir must not come back through execa's merge with process.env.
    extendEnv: false,
    env: dbaEnv({
      AUDITBENCH_COUNTED: 'off',
      AUDITBENCH_DOCKER: '0',
      AUDITBENCH_REPORT_DIR: path.join(live.scratch, 'reports'),
    }),
  });
  // Read from /proc/net/tcp* while it runs.
  const watch = setInterval(() => {
    void listeningAddresses({ exceptPid: Number(livePid) }).then((found) => listening.push(...found));
  }, 500);
  const result = await bench.finally(() => clearInterval(watch));
  const own = result.all
    .split('\n')
    .filter((line) => /production writes|is left out|verdict|pass|fail/i.test(line));
  console.log(`[beside-production] auditbench bench → exit ${result.exitCode}\n${own.join('\n')}`);
  return { all: result.all, exitCode: result.exitCode, listening: [...new Set(listening)] };
}

/** The run passed, said where production writes and what it left out, and logged its events in its own folder. */
export async function expectMeasuredBeside(live: LiveServer, all: string, exitCode: number | undefined) {
  expect(exitCode, all.split('\n').slice(-30).join('\n')).toBe(0);
  expect(all).toContain(
    `production writes ${live.where.auditLog} (server_audit_file_path); this run writes <run>/audit.log`,
  );
  for (const option of ['datadir', 'socket', 'port', 'bind-address', 'pid-file', 'log-error']) {
    expect(all).toContain(`prod.cnf: ${option} is left out`);
  }
  const results = resultsFileSchema.parse(
    JSON.parse(await readFile(path.join(live.scratch, 'reports', 'results.json'), 'utf8')),
  );
  const measured = results.results.filter((r) => r.runId === 'production');
  expect(measured.length).toBeGreaterThan(0);
  expect(measured.map((r) => r.verdict)).not.toContain('fail');
  // Its events were logged, in the run's own folder: the live audit log is compared byte for byte after.
  expect(measured.some((r) => (r.logBytesPerTxn ?? 0) > 0)).toBe(true);
}

const shown = (facts: LiveFacts) =>
  `pid ${facts.pid}, socket inode ${facts.socketInode}, error log ${facts.errorLog.length} bytes, ${facts.datadirFiles.length} datadir entries, audit log ${facts.auditLog.length} bytes`;

/** The live server as it was: the same process, socket, files and logs; the run's server on loopback only. */
export async function expectLiveUnchanged(live: LiveServer, before: LiveFacts, listening: string[]) {
  const after = await live.facts();
  console.log(`[beside-production] live server before: ${shown(before)}`);
  console.log(`[beside-production] live server after:  ${shown(after)}`);
  console.log(`[beside-production] the run's server listened on: ${listening.join(', ') || 'nothing seen'}`);
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
