import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { registerCleanup, startReaper, sweepStale, tempPrefix } from './cleanup.ts';
import { freePort } from './free-port.ts';
import { applyEdit, renderMyCnf, type ServerOptions } from './my-cnf.ts';
import { mergePluginDirs } from './plugin-dir.ts';
import { findServerBinary, type ServerBinary } from './server-binary.ts';
import {
  findInstallDb,
  killProcess,
  launch,
  type ServerProcess,
  stopProcess,
  waitUntilReady,
} from './server-process.ts';
import { SqlSession } from './sql-session.ts';
import type { ConfigEdit, ConnectionOptions, ServerFile, StartedServer } from './started-server.ts';
import { tailLines } from './tail.ts';

export interface LocalServerOptions {
  /** AUDITBENCH_MYSQLD, or null to search PATH. */
  mysqldPath: string | null;
  searchPath: string;
  /** Extra [mysqld] options for the first start. */
  options?: Record<string, string | null>;
  /** How long a start may take before it is reported as failed. */
  startTimeoutMs?: number;
  /** Extra plugin libraries (AUDITBENCH_PLUGIN_DIR), served beside the server's own. */
  pluginDir?: string | null;
}

interface Paths {
  dir: string;
  datadir: string;
  myCnf: string;
  errorLog: string;
}

function baseOptions(binary: ServerBinary, paths: Paths, port: number): ServerOptions {
  const options: ServerOptions = new Map<string, string | null>([
    ['datadir', paths.datadir],
    ['socket', path.join(paths.dir, 'mysqld.sock')],
    ['port', String(port)],
    ['bind_address', '127.0.0.1'],
    ['pid_file', path.join(paths.dir, 'mysqld.pid')],
    ['log_error', paths.errorLog],
    ['tmpdir', paths.dir],
    ['skip_name_resolve', null],
  ]);
  // mysqld refuses to run as root unless told to; the harness often runs as root in CI.
  if (process.getuid?.() === 0) options.set('user', 'root');
  if (binary.flavor !== 'mariadb') options.set('mysqlx', 'OFF');
  return options;
}

async function initialiseDatadir(binary: ServerBinary, paths: Paths, searchPath: string): Promise<void> {
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
    throw new Error(
      `Initialising a datadir with ${command.file} failed (exit ${result.exitCode}):\n${tailLines(`${result.all ?? ''}\n${log}`, 20)}`,
    );
  }
}

export async function startLocalServer(opts: LocalServerOptions): Promise<StartedServer> {
  const binary = await findServerBinary(opts.mysqldPath, opts.searchPath);
  await sweepStale();
  const dir = await mkdtemp(path.join(os.tmpdir(), tempPrefix));
  try {
    await writeFile(path.join(dir, 'owner.pid'), String(process.pid));
    startReaper(dir);
    const paths: Paths = {
      dir,
      datadir: path.join(dir, 'data'),
      myCnf: path.join(dir, 'my.cnf'),
      errorLog: path.join(dir, 'error.log'),
    };
    await mkdir(paths.datadir);
    let options = applyEdit(baseOptions(binary, paths, await freePort()), { set: opts.options ?? {} });
    if (opts.pluginDir) {
      const merged = await mergePluginDirs(binary.path, opts.pluginDir, path.join(dir, 'plugins'));
      options = applyEdit(options, { set: { plugin_dir: merged } });
    }
    await writeFile(paths.myCnf, renderMyCnf(options));
    await initialiseDatadir(binary, paths, opts.searchPath);
    return await runningServer(binary, paths, options, opts.startTimeoutMs ?? 30_000);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function runningServer(
  binary: ServerBinary,
  paths: Paths,
  initialOptions: ServerOptions,
  startTimeoutMs: number,
): Promise<StartedServer> {
  let options = initialOptions;
  let proc: ServerProcess | null = null;
  let stopped = false;
  const connection = (): ConnectionOptions => ({
    host: '127.0.0.1',
    port: Number(options.get('port')),
    user: 'root',
    password: '',
    socketPath: String(options.get('socket')),
  });
  let session = new SqlSession(connection());
  const label = `${binary.flavor} ${binary.version} (local, ${paths.dir})`;

  const errorLogTail = async (lines = 40) =>
    tailLines(await readFile(paths.errorLog, 'utf8').catch(() => ''), lines);

  async function start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await writeFile(paths.myCnf, renderMyCnf(options));
      const logStart = (await stat(paths.errorLog).catch(() => null))?.size ?? 0;
      proc = launch(binary.path, paths.myCnf);
      const outcome = await waitUntilReady(proc, connection(), startTimeoutMs);
      if (outcome.ready) {
        session = new SqlSession(connection());
        return;
      }
      await killProcess(proc);
      const log = (await readFile(paths.errorLog, 'utf8').catch(() => '')).slice(logStart);
      // The free port we were given can be taken before the server binds it; pick another and try again.
      if (attempt < 3 && /Address already in use|Bind on TCP\/IP port/.test(log)) {
        options = applyEdit(options, { set: { port: String(await freePort()) } });
        continue;
      }
      throw new Error(`Server ${label} ${outcome.why}. Error log tail:\n${tailLines(log, 25)}`);
    }
  }

  function resolveInDatadir(relative: string): string {
    const file = path.resolve(paths.datadir, relative);
    if (file !== paths.datadir && !file.startsWith(`${paths.datadir}${path.sep}`)) {
      throw new Error(`'${relative}' is outside the server's datadir: only files in the datadir can be read`);
    }
    return file;
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    unregister();
    await session.close();
    if (proc) await stopProcess(proc, 30_000);
    await rm(paths.dir, { recursive: true, force: true });
  }
  const unregister = registerCleanup(stop);

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  const version = String((await session.query('SELECT VERSION() AS v')).rows[0]?.v ?? binary.version);

  return {
    info: { flavor: binary.flavor, version, target: 'local' },
    get connection() {
      const { socketPath: _unused, ...tcp } = connection();
      return tcp;
    },
    query: (sql) => session.query(sql),
    async restart() {
      await session.close();
      if (proc) await stopProcess(proc);
      await start();
    },
    async killAndStart() {
      await session.close();
      if (proc) await killProcess(proc);
      await start();
    },
    async editConfig(edit: ConfigEdit) {
      options = applyEdit(options, edit);
      await writeFile(paths.myCnf, renderMyCnf(options));
    },
    errorLogTail,
    async pinCpus(cpus: string) {
      const pid = proc?.child.pid;
      if (pid === undefined || proc?.hasExited())
        throw new Error(`Server ${label} is not running, so it cannot be pinned`);
      await execa('taskset', ['-a', '-p', '-c', cpus, String(pid)]);
    },
    async pluginFileExists(soname: string) {
      const { rows } = await session.query('SELECT @@plugin_dir AS dir');
      return stat(path.join(String(rows[0]?.dir ?? ''), soname)).then(
        (info) => info.isFile(),
        () => false,
      );
    },
    async listFiles(dir = '.'): Promise<ServerFile[]> {
      const base = resolveInDatadir(dir);
      const entries = await readdir(base, { withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile());
      return Promise.all(
        files.map(async (entry) => {
          const info = await stat(path.join(base, entry.name));
          return { name: path.join(dir, entry.name), sizeBytes: info.size, fileId: String(info.ino) };
        }),
      );
    },
    readFile: async (file) => readFile(resolveInDatadir(file)),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
