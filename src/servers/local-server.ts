import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { registerCleanup, startReaper, sweepStale, tempPrefix } from './cleanup.ts';
import { freePort } from './free-port.ts';
import { listLocalFiles, readLocalFile } from './local-datadir.ts';
import {
  baseOptions,
  chownTree,
  initialiseDatadir,
  type Paths,
  privatePaths,
  setRootPassword,
} from './local-init.ts';
import { type LocalSyslog, startLocalSyslog } from './local-syslog.ts';
import { applyEdit, optionKey, renderMyCnf, type ServerOptions } from './my-cnf.ts';
import { optionCatalogueOf } from './option-catalogue.ts';
import { recordServer, writeOwnerRecord } from './owner-record.ts';
import { mergePluginDirs, pluginDirOptions } from './plugin-dir.ts';
import { residentBytesOf, serverProcessUnder } from './resident-memory.ts';
import { newPassword, redact, serverOsUser } from './server-account.ts';
import { findServerBinary, type ServerBinary } from './server-binary.ts';
import {
  killProcess,
  type LaunchWrapper,
  launch,
  type ServerProcess,
  stopProcess,
  waitUntilReady,
} from './server-process.ts';
import { SqlSession } from './sql-session.ts';
import type { ConfigEdit, ConnectionOptions, StartedServer } from './started-server.ts';
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
  /**
   * Asked at every (re)start: a program to run the server under (the counted channel's callgrind), given the
   * server's private folder, or null to run it plainly.
   */
  wrapper?: (privateDir: string) => LaunchWrapper | null;
}

export async function startLocalServer(opts: LocalServerOptions): Promise<StartedServer> {
  const binary = await findServerBinary(opts.mysqldPath, opts.searchPath);
  const osUser = await serverOsUser();
  await sweepStale();
  const dir = await mkdtemp(path.join(os.tmpdir(), tempPrefix));
  let syslog: LocalSyslog | null = null;
  try {
    await writeOwnerRecord(dir);
    await startReaper(dir);
    const paths = privatePaths(dir);
    await mkdir(paths.datadir);
    await mkdir(paths.files);
    const base = baseOptions(binary, paths, await freePort(), osUser);
    let options = applyEdit(base, { set: opts.options ?? {} });
    if (opts.pluginDir) {
      const merged = await mergePluginDirs(binary.path, opts.pluginDir, path.join(dir, 'plugins'));
      const supplied = await pluginDirOptions(opts.pluginDir, await optionCatalogueOf(binary.path));
      for (const line of supplied.lines) process.stderr.write(`auditbench: ${line}\n`);
      options = applyEdit(options, { set: { ...supplied.options, plugin_dir: merged } });
    }
    await writeFile(paths.myCnf, renderMyCnf(options));
    await chownTree(dir, osUser);
    await initialiseDatadir(binary, paths, opts.searchPath);
    const timeoutMs = opts.startTimeoutMs ?? 30_000;
    const password = newPassword();
    await setRootPassword({ binary, paths, base, root: rootAccount(options, password), osUser, timeoutMs });
    // Every local server gets a /dev/log of its own when the machine allows it: nothing it sends to syslog reaches
    // the host's journal (src/servers/local-syslog.ts).
    syslog = await startLocalSyslog(dir, paths.datadir, opts.searchPath);
    return await runningServer({
      binary,
      paths,
      options,
      password,
      startTimeoutMs: timeoutMs,
      wrapperNow: launchWrapper(dir, opts.wrapper, syslog),
      syslog,
    });
  } catch (error) {
    await syslog?.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The launch asked at every (re)start: callgrind's wrapper (when given) inside the private /dev (when there is one). */
function launchWrapper(
  dir: string,
  wrapper: LocalServerOptions['wrapper'],
  syslog: LocalSyslog | null,
): (() => LaunchWrapper | null) | undefined {
  if (!wrapper && !syslog) return undefined;
  return () => {
    const inner = wrapper?.(dir) ?? null;
    return syslog ? syslog.wrap(inner) : inner;
  };
}

/** root over the private socket; its TCP twin (root@127.0.0.1) has the same password. */
function rootAccount(options: ServerOptions, password: string): ConnectionOptions {
  return {
    host: '127.0.0.1',
    port: Number(options.get('port')),
    user: 'root',
    password,
    socketPath: String(options.get('socket')),
  };
}

interface RunningOptions {
  binary: ServerBinary;
  paths: Paths;
  /** The options of the first start; a restart may change them. */
  options: ServerOptions;
  password: string;
  startTimeoutMs: number;
  wrapperNow?: (() => LaunchWrapper | null) | undefined;
  /** The server's own syslog receiver, stopped after the server. */
  syslog: LocalSyslog | null;
}

async function runningServer(opts: RunningOptions): Promise<StartedServer> {
  const { binary, paths, password, startTimeoutMs, wrapperNow } = opts;
  let options = opts.options;
  let proc: ServerProcess | null = null;
  let stopped = false;
  const connection = (): ConnectionOptions => rootAccount(options, password);
  let session = new SqlSession(connection());
  const label = `${binary.flavor} ${binary.version} (local, ${paths.dir})`;

  const errorLogTail = async (lines = 40) =>
    redact(tailLines(await readFile(paths.errorLog, 'utf8').catch(() => ''), lines), [password]);

  async function start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await writeFile(paths.myCnf, renderMyCnf(options));
      const logStart = (await stat(paths.errorLog).catch(() => null))?.size ?? 0;
      proc = launch(binary.path, paths.myCnf, wrapperNow?.() ?? undefined);
      if (proc.child.pid !== undefined) await recordServer(paths.dir, proc.child.pid);
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
      throw new Error(
        `Server ${label} ${outcome.why}. Error log tail:\n${redact(tailLines(log, 25), [password])}`,
      );
    }
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    unregister();
    await session.close();
    if (proc) await stopProcess(proc, 30_000);
    await opts.syslog?.stop();
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
    binaryPath: binary.path,
    configOption: (name) => options.get(optionKey(name)),
    errorLogTail,
    async pinCpus(cpus: string) {
      const pid = proc?.child.pid;
      if (pid === undefined || proc?.hasExited())
        throw new Error(`Server ${label} is not running, so it cannot be pinned`);
      await execa('taskset', ['-a', '-p', '-c', cpus, String(pid)]);
    },
    processId: () => (proc && !proc.hasExited() ? (proc.child.pid ?? null) : null),
    async residentBytes() {
      const pid = proc?.child.pid;
      if (pid === undefined || proc?.hasExited()) return null;
      const server = await serverProcessUnder(pid);
      return server === null ? null : residentBytesOf(server);
    },
    async pluginFileExists(soname: string) {
      const { rows } = await session.query('SELECT @@plugin_dir AS dir');
      return stat(path.join(String(rows[0]?.dir ?? ''), soname)).then(
        (info) => info.isFile(),
        () => false,
      );
    },
    listFiles: (dir = '.') => listLocalFiles(paths.datadir, dir),
    readFile: (file) => readLocalFile(paths.datadir, file),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
