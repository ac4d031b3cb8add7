import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { serverOsUser } from '../src/servers/server-account.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { dbaEnv } from '../test/support/dba-repo.ts';
import { listeningAddresses } from '../test/support/listening.ts';

// auditbench run beside production: a second mariadbd stands for the live server (its own datadir, socket, port, a
// marker row, server_audit writing into a folder that stands for /var/log/mysql), and the DBA's whole production
// option file points at it, open on every interface. `auditbench bench` on a run reading that file must pass, with
// the plugin's options applied and its log moved into the run's folder, and leave the live server as it was.

const config = { ...loadEnvironment(), target: 'local' as const };
const launcher = fileURLToPath(new URL('../auditbench', import.meta.url));

interface LiveFacts {
  pid: string;
  socketInode: number;
  pidFile: string;
  errorLog: string;
  datadirFiles: string[];
  auditLog: Buffer;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => path.join(e.parentPath, e.name)).sort();
}

let scratch: string;
let live: StartedServer;
let where: { datadir: string; socket: string; pidFile: string; errorLog: string; auditLog: string };

async function liveFacts(): Promise<LiveFacts> {
  return {
    pid: (await readFile(where.pidFile, 'utf8')).trim(),
    socketInode: (await stat(where.socket)).ino,
    pidFile: where.pidFile,
    errorLog: await readFile(where.errorLog, 'utf8'),
    datadirFiles: await filesUnder(where.datadir),
    auditLog: await readFile(where.auditLog),
  };
}

describe('beside production', () => {
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'beside-production-'));
    // The live server's OS user reaches its log folder inside, as mysql reaches /var/log/mysql.
    await chmod(scratch, 0o755);
    live = await startServer(config);
    // The folder that stands for /var/log/mysql: the live server's own audit trail goes there.
    const logDir = path.join(scratch, 'var-log-mysql');
    await mkdir(logDir);
    const user = await serverOsUser();
    if (user) await chown(logDir, user.uid, user.gid);
    const auditLog = path.join(logDir, 'audit.log');
    await live.query("INSTALL SONAME 'server_audit'");
    await live.query(`SET GLOBAL server_audit_file_path = '${auditLog}'`);
    await live.query("SET GLOBAL server_audit_events = 'CONNECT,QUERY_DDL'");
    await live.query('SET GLOBAL server_audit_logging = ON');
    await live.query('CREATE DATABASE production');
    await live.query('CREATE TABLE production.marker (id INT PRIMARY KEY, note VARCHAR(40))');
    await live.query("INSERT INTO production.marker VALUES (1, 'the live server')");
    const row = (
      await live.query(
        'SELECT @@datadir AS datadir, @@socket AS socket, @@pid_file AS pidFile, @@log_error AS errorLog',
      )
    ).rows[0] as Record<string, string>;
    where = {
      datadir: row.datadir as string,
      socket: row.socket as string,
      pidFile: row.pidFile as string,
      errorLog: path.resolve(row.datadir as string, row.errorLog as string),
      auditLog,
    };
  }, 120_000);

  afterAll(async () => {
    await live?.[Symbol.asyncDispose]();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('a production option file aimed at the live server measures its own server and leaves the live one as it was', async () => {
    await writeFile(
      path.join(scratch, 'prod.cnf'),
      [
        '[mysqld]',
        `datadir = ${where.datadir}`,
        `socket = ${where.socket}`,
        `port = ${live.connection.port}`,
        'bind-address = 0.0.0.0',
        `pid-file = ${where.pidFile}`,
        `log-error = ${where.errorLog}`,
        'character-set-server = utf8mb4',
        '[mariadb]',
        'server_audit_events = CONNECT,QUERY_DDL',
        `server_audit_file_path = ${where.auditLog}`,
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(scratch, 'auditbench.config.ts'),
      `export default {
  runs: [
    {
      id: 'production',
      plugin: 'server_audit',
      cnf: { kind: 'option-file', path: 'prod.cnf' },
      traffic: { added: { connectionsPerS: 20 } },
    },
  ],
};
`,
    );
    // Quiet while the facts are read: nothing of ours touches the live server between the two readings.
    const before = await liveFacts();
    const listening: string[] = [];
    const bench = execa(launcher, ['bench'], {
      cwd: scratch,
      all: true,
      reject: false,
      timeout: 600_000,
      // This run's own AUDITBENCH_CONFIG and report dir must not come back through execa's merge with process.env.
      extendEnv: false,
      env: dbaEnv({
        AUDITBENCH_COUNTED: 'off',
        AUDITBENCH_DOCKER: '0',
        AUDITBENCH_REPORT_DIR: path.join(scratch, 'reports'),
      }),
    });
    // The run's server's listening sockets, read from /proc/net/tcp* while it runs (the live server's excluded).
    const watch = setInterval(() => {
      void listeningAddresses({ exceptPid: Number(before.pid) }).then((found) => listening.push(...found));
    }, 500);
    const result = await bench.finally(() => clearInterval(watch));
    const own = result.all
      .split('\n')
      .filter((line) => /production writes|is left out|verdict|pass|fail/i.test(line));
    console.log(`[beside-production] auditbench bench → exit ${result.exitCode}\n${own.join('\n')}`);
    expect(result.exitCode, result.all.split('\n').slice(-30).join('\n')).toBe(0);
    expect(result.all).toContain(
      `production writes ${where.auditLog} (server_audit_file_path); this run writes <run>/audit.log`,
    );
    for (const option of ['datadir', 'socket', 'port', 'bind-address', 'pid-file', 'log-error']) {
      expect(result.all).toContain(`prod.cnf: ${option} is left out`);
    }

    const results = resultsFileSchema.parse(
      JSON.parse(await readFile(path.join(scratch, 'reports', 'results.json'), 'utf8')),
    );
    const measured = results.results.filter((r) => r.runId === 'production');
    expect(measured.length).toBeGreaterThan(0);
    expect(measured.map((r) => r.verdict)).not.toContain('fail');
    // Its events were logged, in the run's own folder: the live audit log is compared byte for byte below.
    expect(measured.some((r) => (r.logBytesPerTxn ?? 0) > 0)).toBe(true);

    const after = await liveFacts();
    const unique = [...new Set(listening)];
    console.log(
      `[beside-production] live server before: pid ${before.pid}, socket inode ${before.socketInode}, error log ${before.errorLog.length} bytes, ${before.datadirFiles.length} datadir entries, audit log ${before.auditLog.length} bytes`,
    );
    console.log(
      `[beside-production] live server after:  pid ${after.pid}, socket inode ${after.socketInode}, error log ${after.errorLog.length} bytes, ${after.datadirFiles.length} datadir entries, audit log ${after.auditLog.length} bytes`,
    );
    console.log(`[beside-production] the run's server listened on: ${unique.join(', ') || 'nothing seen'}`);
    expect(after.pid).toBe(before.pid);
    expect(after.socketInode).toBe(before.socketInode);
    expect(existsSync(before.pidFile)).toBe(true);
    expect(after.errorLog).toBe(before.errorLog);
    expect(after.datadirFiles).toEqual(before.datadirFiles);
    expect(after.auditLog.equals(before.auditLog)).toBe(true);
    expect(unique.length).toBeGreaterThan(0);
    expect(unique.every((address) => address.startsWith('127.0.0.1:'))).toBe(true);
    // Read last: this query is the live server's first connection since the first reading.
    expect((await live.query('SELECT note FROM production.marker WHERE id = 1')).rows).toEqual([
      { note: 'the live server' },
    ]);
  }, 660_000);

  // Debian's packaged server file, read from this machine (never copied into the repository), as a run's cnf.
  const debianCnf = '/etc/mysql/mariadb.conf.d/50-server.cnf';
  test.skipIf(!existsSync(debianCnf))(
    "Debian's 50-server.cnf runs with its path options left out by name and its character set kept",
    async () => {
      const configPath = path.join(scratch, 'debian.config.ts');
      await writeFile(
        configPath,
        `export default { runs: [{ plugin: 'server_audit', cnf: { kind: 'option-file', path: '${debianCnf}' } }] };\n`,
      );
      const [run] = await loadRuns({ ...config, configPath, runIds: null }, profiles);
      const leftOut = run?.outsideOptions.leftOut.map((o) => o.name) ?? [];
      console.log(`[beside-production] ${debianCnf}: left out ${leftOut.join(', ')}`);
      expect(leftOut).toEqual(expect.arrayContaining(['pid-file', 'basedir', 'bind-address']));
      await using server = await startServer(config);
      await server.editConfig({ set: run?.startupOptions ?? {} });
      await server.restart();
      const row = (await server.query('SELECT @@character_set_server AS cs, @@bind_address AS bind')).rows[0];
      expect(row).toEqual({ cs: 'utf8mb4', bind: '127.0.0.1' });
    },
    120_000,
  );
});
