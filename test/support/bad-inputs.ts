import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** One bad input: the environment it runs with, a fragment of the one line it must print, a secret it must not. */
export interface BadInput {
  what: string;
  env: Record<string, string>;
  says: string;
  secret?: string;
}

export interface BadInputFixtures {
  dir: string;
  file: string;
  script: (name: string) => string;
  /** A PATH holding a working fake mariadbd and nothing else (no sysbench). */
  pathWithoutSysbench: string;
  /** A PATH whose sysbench is too old. */
  pathWithOldSysbench: string;
}

const serverLine =
  "echo 'mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)'";
const scripts: Record<string, string> = {
  server: serverLine,
  client:
    "echo 'mariadb  Ver 15.1 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64) using  EditLine wrapper'",
  mysqlClient: "echo 'mysql  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)'",
  admin: "echo 'mariadb-admin  Ver 10.0 Distrib 10.11.19-MariaDB, for debian-linux-gnu on x86_64'",
  notServer: "echo 'sleep (GNU coreutils) 9.1'",
  silent: 'exit 0',
  fails: 'echo boom >&2; exit 3',
  hangs: 'exec sleep 30',
};

async function writeScript(file: string, body: string): Promise<void> {
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
}

/** Fake binaries and a plain file in a fresh temp dir, for the table below. */
export async function makeFixtures(): Promise<BadInputFixtures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-bad-input-'));
  const file = path.join(dir, 'a-file');
  await writeFile(file, 'not a folder\n');
  for (const [name, body] of Object.entries(scripts)) await writeScript(path.join(dir, name), body);
  const noSysbench = path.join(dir, 'no-sysbench');
  const oldSysbench = path.join(dir, 'old-sysbench');
  for (const bin of [noSysbench, oldSysbench]) {
    await mkdir(bin);
    await writeScript(path.join(bin, 'mariadbd'), serverLine);
  }
  await writeScript(path.join(oldSysbench, 'sysbench'), "echo 'sysbench 0.4.12'");
  return {
    dir,
    file,
    script: (name) => path.join(dir, name),
    pathWithoutSysbench: noSysbench,
    pathWithOldSysbench: oldSysbench,
  };
}

const secret = 'Secret1x';
const dsn = (value: string): BadInput['env'] => ({ AUDITBENCH_DSN: value });

/** Every class of bad setting the issue names, and more: each must stop the run with one line before any server. */
export function badInputs(fx: BadInputFixtures): BadInput[] {
  const rows: BadInput[] = [
    {
      what: 'unknown workload',
      env: { AUDITBENCH_WORKLOAD: 'fast' },
      says: 'AUDITBENCH_WORKLOAD must be one of',
    },
    { what: 'empty workload', env: { AUDITBENCH_WORKLOAD: '' }, says: 'AUDITBENCH_WORKLOAD must be one of' },
    { what: 'workload in capitals', env: { AUDITBENCH_WORKLOAD: 'SMOKE' }, says: "got 'SMOKE'" },
    {
      what: 'a retired policy variable still set',
      env: { AUDITBENCH_MAX_OVERHEAD_PCT: '10' },
      says: 'AUDITBENCH_MAX_OVERHEAD_PCT is no longer read: set `maxOverheadPct` (top level or a run) in auditbench.config.ts instead',
    },
    {
      what: 'a retired threads variable still set, even empty',
      env: { AUDITBENCH_THREADS: '' },
      says: 'AUDITBENCH_THREADS is no longer read: set `threads` (top level or a run) in auditbench.config.ts',
    },
    {
      what: 'hex regression limit',
      env: { AUDITBENCH_MAX_REGRESSION_PP: '0x5' },
      says: 'AUDITBENCH_MAX_REGRESSION_PP',
    },
    {
      what: 'the retired counted-rise variable',
      env: { AUDITBENCH_MAX_COUNTED_RISE_PP: '1' },
      says: 'AUDITBENCH_MAX_COUNTED_RISE_PP is no longer read: set `maxCountedRisePp` (top level)',
    },
    {
      what: 'zero regression limit',
      env: { AUDITBENCH_MAX_REGRESSION_PP: '0' },
      says: 'AUDITBENCH_MAX_REGRESSION_PP',
    },
    {
      what: 'the retired inconclusive variable',
      env: { AUDITBENCH_INCONCLUSIVE: 'pass' },
      says: "AUDITBENCH_INCONCLUSIVE is no longer read: set `inconclusive: 'pass'` (top level or a run)",
    },
    {
      what: 'the retired interference variable',
      env: { AUDITBENCH_INTERFERENCE: 'retry' },
      says: 'AUDITBENCH_INTERFERENCE is no longer read: set `interference` (top level or a run)',
    },
    {
      what: 'docker opt-out that is not 0 or 1',
      env: { AUDITBENCH_DOCKER: 'no' },
      says: 'AUDITBENCH_DOCKER must be 0 (no containers) or 1',
    },
    {
      what: 'matrix shard past the count',
      env: { AUDITBENCH_MATRIX: '4/3' },
      says: "AUDITBENCH_MATRIX must be 'sample', 'all' or a shard of all such as 2/3; got '4/3'",
    },
    {
      what: 'settings sweep that is neither small nor full',
      env: { AUDITBENCH_SETTINGS_SWEEP: 'all' },
      says: "AUDITBENCH_SETTINGS_SWEEP must be small (the covering set `test` runs) or full (every configuration); got 'all'",
    },
    {
      what: 'fault set that is neither disk nor receiver',
      env: { AUDITBENCH_FAULTS: 'syslog' },
      says: "AUDITBENCH_FAULTS must be a comma-separated list of disk (the log's filesystem filled, frozen, the file moved) and receiver (a syslog run's receiver paused, killed, its socket removed); got 'syslog'",
    },
    {
      what: 'counted channel that is not auto, on or off',
      env: { AUDITBENCH_COUNTED: 'yes' },
      says: "AUDITBENCH_COUNTED must be auto (count local runs where valgrind is installed), on (count every local run, or fail it) or off; got 'yes'",
    },
    {
      what: 'a large-pool switch that is not 0 or 1',
      env: { AUDITBENCH_LARGE_POOL: 'yes' },
      says: "AUDITBENCH_LARGE_POOL must be 1 (a run's buffer pool may exceed MemAvailable) or 0; got 'yes'",
    },
    {
      what: 'the retired precision variable',
      env: { AUDITBENCH_PRECISION_AA_RUNS: '4' },
      says: "AUDITBENCH_PRECISION_AA_RUNS is no longer read: set AUDITBENCH_STUDY='aa-runs=N' instead",
    },
    {
      what: 'empty report dir',
      env: { AUDITBENCH_REPORT_DIR: '' },
      says: 'AUDITBENCH_REPORT_DIR must not be empty',
    },
    {
      what: 'blank report dir',
      env: { AUDITBENCH_REPORT_DIR: '   ' },
      says: 'AUDITBENCH_REPORT_DIR must not be empty',
    },
    {
      what: 'report dir is a file',
      env: { AUDITBENCH_REPORT_DIR: fx.file },
      says: 'is a file, not a directory',
    },
    {
      what: 'report dir under a file',
      env: { AUDITBENCH_REPORT_DIR: `${fx.file}/reports` },
      says: 'which is a file',
    },
    { what: 'unknown target', env: { AUDITBENCH_TARGET: 'k8s' }, says: 'AUDITBENCH_TARGET must be one of' },
    {
      what: 'external target without DSN',
      env: { AUDITBENCH_TARGET: 'external' },
      says: 'needs AUDITBENCH_DSN',
    },
    {
      what: 'disposable switch that is not 0 or 1',
      env: { AUDITBENCH_DSN_DISPOSABLE: 'yes' },
      says: "AUDITBENCH_DSN_DISPOSABLE must be 1 (the server at AUDITBENCH_DSN is one you can spare) or 0; got 'yes'",
    },
    {
      what: 'external target not said to be disposable',
      env: { AUDITBENCH_TARGET: 'external', AUDITBENCH_DSN: `mysql://root:${secret}@127.0.0.1:3306` },
      says: 'auditbench did not start the server at 127.0.0.1:3306, and its runs install and uninstall plugins, set globals, load tables, rotate logs and restart it: set AUDITBENCH_DSN_DISPOSABLE=1 if it is a server you can spare',
      secret,
    },
    {
      what: 'empty image in the list',
      env: { AUDITBENCH_IMAGES: 'auditbench/mariadb:10.11,,x' },
      says: 'AUDITBENCH_IMAGES',
    },
    {
      what: 'image with a space',
      env: { AUDITBENCH_IMAGES: 'auditbench/mariadb 10.11' },
      says: 'AUDITBENCH_IMAGES',
    },
    { what: 'DSN without scheme', env: dsn('root@127.0.0.1'), says: 'must look like mysql://' },
    {
      what: 'DSN remote host',
      env: dsn(`mysql://root:${secret}@db.example.com:3306`),
      says: "host 'db.example.com' is refused",
      secret,
    },
    {
      what: 'DSN loopback look-alike name',
      env: dsn(`mysql://root:${secret}@127.0.0.1.evil.example`),
      says: 'is refused',
      secret,
    },
    {
      what: 'DSN loopback-looking non-IP',
      env: dsn(`mysql://root:${secret}@127.0.0.300`),
      says: "host '127.0.0.300' is refused",
      secret,
    },
    { what: 'DSN port 0', env: dsn(`mysql://root:${secret}@127.0.0.1:0`), says: 'port 0', secret },
    {
      what: 'DSN port out of range',
      env: dsn(`mysql://root:${secret}@127.0.0.1:99999`),
      says: 'must look like',
      secret,
    },
    {
      what: 'DSN malformed escape',
      env: dsn(`mysql://root:${secret}%zz@127.0.0.1`),
      says: 'malformed %-escape',
      secret,
    },
    {
      what: 'DSN with leading spaces',
      env: dsn(`   mysql://root:${secret}@db.example.com`),
      says: 'is refused',
      secret,
    },
    {
      what: 'DSN of another scheme',
      env: dsn(`postgres://root:${secret}@127.0.0.1`),
      says: 'must look like',
      secret,
    },
    {
      what: 'DSN with an unencoded @',
      env: dsn(`mysql://root:${secret}@x@db.example.com`),
      says: 'is refused',
      secret,
    },
    { what: 'DSN without host part', env: dsn(`mysql://root:${secret}`), says: 'must look like', secret },
    {
      what: 'DSN naming a database',
      env: dsn(`mysql://root:${secret}@127.0.0.1/shop`),
      says: 'must not name a database',
      secret,
    },
    {
      what: 'empty restart command',
      env: { AUDITBENCH_RESTART_CMD: '' },
      says: 'AUDITBENCH_RESTART_CMD must not be empty',
    },
    {
      what: 'restart command written for the mode and option file as variables',
      env: { AUDITBENCH_RESTART_CMD: 'cp "$AUDITBENCH_CNF" /etc/mysql/conf.d/ && systemctl restart mariadb' },
      says: 'AUDITBENCH_RESTART_CMD reads a variable auditbench no longer sets: use $2 (the option file to add)',
    },
    {
      what: 'blank base ref',
      env: { AUDITBENCH_BASE_REF: ' ' },
      says: 'AUDITBENCH_BASE_REF must not be empty',
    },
    { what: 'bad run id list', env: { AUDITBENCH_RUNS: 'Server Audit' }, says: 'AUDITBENCH_RUNS' },
    {
      what: 'empty server binary',
      env: { AUDITBENCH_MYSQLD: '' },
      says: 'AUDITBENCH_MYSQLD must not be empty',
    },
    {
      what: 'missing server binary',
      env: { AUDITBENCH_MYSQLD: '/nonexistent/mysqld' },
      says: 'not an executable file',
    },
    {
      what: 'server binary is the MariaDB client',
      env: { AUDITBENCH_MYSQLD: fx.script('client') },
      says: 'this is a client',
    },
    {
      what: 'server binary is the MySQL 8 client',
      env: { AUDITBENCH_MYSQLD: fx.script('mysqlClient') },
      says: 'this is a client',
    },
    {
      what: 'server binary is mariadb-admin',
      env: { AUDITBENCH_MYSQLD: fx.script('admin') },
      says: 'this is a client',
    },
    {
      what: 'server binary is not a server',
      env: { AUDITBENCH_MYSQLD: fx.script('notServer') },
      says: 'is not a MySQL or MariaDB server',
    },
    {
      what: 'server binary prints nothing',
      env: { AUDITBENCH_MYSQLD: fx.script('silent') },
      says: 'is not a MySQL or MariaDB server',
    },
    {
      what: 'server binary fails --version',
      env: { AUDITBENCH_MYSQLD: fx.script('fails') },
      says: '--version exited with 3',
    },
    {
      what: 'server binary hangs on --version',
      env: { AUDITBENCH_MYSQLD: fx.script('hangs') },
      says: 'did not answer --version within',
    },
    {
      what: 'server binary is a directory',
      env: { AUDITBENCH_MYSQLD: fx.dir },
      says: 'is not a MySQL or MariaDB server',
    },
    {
      what: 'plugin dir missing',
      env: { AUDITBENCH_PLUGIN_DIR: '/nonexistent/plugins' },
      says: 'AUDITBENCH_PLUGIN_DIR',
    },
    { what: 'plugin dir is a file', env: { AUDITBENCH_PLUGIN_DIR: fx.file }, says: 'is not a directory' },
    { what: 'TMPDIR with #', env: { TMPDIR: '/tmp/a#b' }, says: 'TMPDIR must be an absolute path' },
    {
      what: 'TMPDIR with regex characters',
      env: { TMPDIR: '/tmp/x(y)+' },
      says: 'TMPDIR must be an absolute path',
    },
    {
      what: 'TMPDIR with a space',
      env: { TMPDIR: '/tmp/with space' },
      says: 'TMPDIR must be an absolute path',
    },
    { what: 'TMPDIR with a quote', env: { TMPDIR: "/tmp/it's" }, says: 'TMPDIR must be an absolute path' },
    { what: 'relative TMPDIR', env: { TMPDIR: 'tmp' }, says: 'TMPDIR must be an absolute path' },
    {
      what: 'missing TMPDIR',
      env: { TMPDIR: '/nonexistent-tmp' },
      says: "TMPDIR '/nonexistent-tmp' does not exist",
    },
    { what: 'TMPDIR is a file', env: { TMPDIR: fx.file }, says: 'is not a directory' },
    {
      what: 'configuration file missing',
      env: { AUDITBENCH_CONFIG: '/nonexistent/auditbench.config.ts' },
      says: 'AUDITBENCH_CONFIG',
    },
    { what: 'sysbench missing', env: { PATH: fx.pathWithoutSysbench }, says: 'sysbench is not on PATH' },
    {
      what: 'sysbench too old',
      env: { PATH: fx.pathWithOldSysbench },
      says: "answered --version with 'sysbench 0.4.12'",
    },
  ];
  return rows;
}
