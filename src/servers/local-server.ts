import type { Buffer } from 'node:buffer';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { type Clock, realClock } from '../clock/clock.ts';
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
import type {
  ConfigEdit,
  ConnectionOptions,
  QueryResult,
  ReceiverControl,
  ServerFile,
  ServerInfo,
  StartedServer,
} from './started-server.ts';
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
  /** What a start's deadline and waits read; the real clock by default. */
  clock?: Clock;
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
      clock: opts.clock ?? realClock,
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
  /** What a start's deadline and waits read. */
  clock: Clock;
}

async function runningServer(opts: RunningOptions): Promise<StartedServer> {
  const server = new LocalServer(opts);
  await server.open();
  return server;
}

/** A mariadbd/mysqld child of this process, in a private folder; its state is the fields below. */
class LocalServer implements StartedServer {
  readonly binaryPath: string;
  readonly #opts: RunningOptions;
  readonly #label: string;
  readonly #unregister: () => void;
  /** The options the next start writes: an edit, or a port taken before the server bound it, changes them. */
  #options: ServerOptions;
  /** The running child, or the last one; null before the first start. */
  #proc: ServerProcess | null = null;
  /** Root over the socket; a new one after each start. */
  #session: SqlSession;
  #info: ServerInfo;
  #stopped = false;

  constructor(opts: RunningOptions) {
    this.#opts = opts;
    this.binaryPath = opts.binary.path;
    this.#options = opts.options;
    this.#session = new SqlSession(this.#root());
    this.#label = `${opts.binary.flavor} ${opts.binary.version} (local, ${opts.paths.dir})`;
    this.#info = { flavor: opts.binary.flavor, version: opts.binary.version, target: 'local' };
    this.#unregister = registerCleanup(() => this.stop());
  }

  /** The first start (the server is stopped and its folder removed if it fails), then the version it reports. */
  async open(): Promise<void> {
    try {
      await this.#start();
    } catch (error) {
      await this.stop();
      throw error;
    }
    const { rows } = await this.#session.query('SELECT VERSION() AS v');
    this.#info = { ...this.#info, version: String(rows[0]?.v ?? this.#opts.binary.version) };
  }

  get info(): ServerInfo {
    return this.#info;
  }

  get connection(): ConnectionOptions {
    const { socketPath: _unused, ...tcp } = this.#root();
    return tcp;
  }

  #root(): ConnectionOptions {
    return rootAccount(this.#options, this.#opts.password);
  }

  async #start(): Promise<void> {
    const { binary, paths, password, startTimeoutMs, wrapperNow, clock } = this.#opts;
    for (let attempt = 1; ; attempt++) {
      await writeFile(paths.myCnf, renderMyCnf(this.#options));
      const logStart = (await stat(paths.errorLog).catch(() => null))?.size ?? 0;
      const proc = launch(binary.path, paths.myCnf, wrapperNow?.() ?? undefined);
      this.#proc = proc;
      if (proc.child.pid !== undefined) await recordServer(paths.dir, proc.child.pid);
      const outcome = await waitUntilReady(proc, this.#root(), startTimeoutMs, clock);
      if (outcome.ready) {
        this.#session = new SqlSession(this.#root());
        return;
      }
      await killProcess(proc);
      const log = (await readFile(paths.errorLog, 'utf8').catch(() => '')).slice(logStart);
      // The free port we were given can be taken before the server binds it; pick another and try again.
      if (attempt < 3 && /Address already in use|Bind on TCP\/IP port/.test(log)) {
        this.#options = applyEdit(this.#options, { set: { port: String(await freePort()) } });
        continue;
      }
      throw new Error(
        `Server ${this.#label} ${outcome.why}. Error log tail:\n${redact(tailLines(log, 25), [password])}`,
      );
    }
  }

  query(sql: string): Promise<QueryResult> {
    return this.#session.query(sql);
  }

  async restart(): Promise<void> {
    await this.#session.close();
    if (this.#proc) await stopProcess(this.#proc);
    await this.#start();
  }

  async killAndStart(): Promise<void> {
    await this.#session.close();
    if (this.#proc) await killProcess(this.#proc);
    await this.#start();
  }

  async editConfig(edit: ConfigEdit): Promise<void> {
    this.#options = applyEdit(this.#options, edit);
    await writeFile(this.#opts.paths.myCnf, renderMyCnf(this.#options));
  }

  configOption(name: string): string | null | undefined {
    return this.#options.get(optionKey(name));
  }

  async errorLogTail(lines = 40): Promise<string> {
    const log = await readFile(this.#opts.paths.errorLog, 'utf8').catch(() => '');
    return redact(tailLines(log, lines), [this.#opts.password]);
  }

  async pinCpus(cpus: string): Promise<void> {
    const pid = this.#proc?.child.pid;
    if (pid === undefined || this.#proc?.hasExited())
      throw new Error(`Server ${this.#label} is not running, so it cannot be pinned`);
    await execa('taskset', ['-a', '-p', '-c', cpus, String(pid)]);
  }

  async drainSyslog(): Promise<void> {
    await this.#opts.syslog?.drain();
  }

  syslogReceiver(): ReceiverControl | null {
    return this.#opts.syslog?.control ?? null;
  }

  processId(): number | null {
    const proc = this.#proc;
    return proc && !proc.hasExited() ? (proc.child.pid ?? null) : null;
  }

  async residentBytes(): Promise<number | null> {
    const pid = this.#proc?.child.pid;
    if (pid === undefined || this.#proc?.hasExited()) return null;
    const server = await serverProcessUnder(pid);
    return server === null ? null : residentBytesOf(server);
  }

  async pluginFileExists(soname: string): Promise<boolean> {
    const { rows } = await this.#session.query('SELECT @@plugin_dir AS dir');
    return stat(path.join(String(rows[0]?.dir ?? ''), soname)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  listFiles(dir = '.'): Promise<ServerFile[]> {
    return listLocalFiles(this.#opts.paths.datadir, dir);
  }

  readFile(file: string): Promise<Buffer> {
    return readLocalFile(this.#opts.paths.datadir, file);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unregister();
    // A paused receiver (the receiver faults) holds every audited statement, the session's own and the server's
    // shutdown, in a send(): continued first.
    this.#opts.syslog?.control.resume();
    await this.#session.close();
    if (this.#proc) await stopProcess(this.#proc, 30_000);
    await this.#opts.syslog?.stop();
    await rm(this.#opts.paths.dir, { recursive: true, force: true });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}
