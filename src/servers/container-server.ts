import type { Buffer } from 'node:buffer';
import type { ContainerRuntimeClient, StartedTestContainer } from 'testcontainers';
import { type Clock, realClock } from '../clock/clock.ts';
import { registerCleanup } from './cleanup.ts';
import {
  configProblem,
  containerFileExists,
  listContainerFiles,
  readContainerFile,
} from './container-files.ts';
import { cnfPath, firstStart, secureFilesDir, silentEntrypoint } from './container-start.ts';
import { containerReceiverUp, drainContainerSyslog } from './container-syslog.ts';
import {
  containerLogTail,
  containerRuntime,
  hasImage,
  missingImageAdvice,
  startContainerReaper,
  stopContainerReaper,
  sweepStaleContainers,
} from './docker-engine.ts';
import { applyEdit, renderMyCnf, type ServerOptions } from './my-cnf.ts';
import { residentBytesOf, serverProcessUnder } from './resident-memory.ts';
import { newPassword, redact } from './server-account.ts';
import { identify } from './server-identity.ts';
import { canConnect, SqlSession } from './sql-session.ts';
import type {
  ConfigEdit,
  ConnectionOptions,
  QueryResult,
  ServerFile,
  ServerInfo,
  StartedServer,
} from './started-server.ts';

export interface ContainerServerOptions {
  image: string;
  /** Extra [mysqld] options for the first start. */
  options?: Record<string, string | null>;
  /** How long one start may take (the first includes initialising the datadir) before it is reported failed. */
  startTimeoutMs?: number;
  /** Host plugin libraries copied into the image's plugin directory, e.g. to try one server's plugin on another. */
  pluginFiles?: string[];
  /** What a start's deadline and waits read; the real clock by default. */
  clock?: Clock;
}

// No client-side file reads; server-side file access confined to a folder firstStart creates, empty.
const privateOptions: ServerOptions = new Map([
  ['local_infile', '0'],
  ['secure_file_priv', secureFilesDir],
]);

export async function startContainerServer(opts: ContainerServerOptions): Promise<StartedServer> {
  const client = await containerRuntime();
  if (!(await hasImage(client, opts.image)) && opts.image.startsWith('auditbench/')) {
    throw new Error(missingImageAdvice(opts.image));
  }
  await sweepStaleContainers(client);
  const options = applyEdit(privateOptions, { set: opts.options ?? {} });
  // MySQL 9.7 initialises and starts in 10–18 s on a busy 2-core machine; a hang is reported after this.
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const password = newPassword();
  const container = await firstStart({
    image: opts.image,
    cnf: renderMyCnf(options),
    rootPassword: password,
    timeoutMs,
    pluginFiles: opts.pluginFiles,
  });
  const label = `${opts.image} (container ${container.getId().slice(0, 12)})`;
  return runningServer(
    {
      client,
      container,
      docker: client.container.getById(container.getId()),
      label,
      timeoutMs,
      password,
      clock: opts.clock ?? realClock,
    },
    options,
  );
}

/** The parts of a started container that the server's methods share. */
interface Running {
  client: ContainerRuntimeClient;
  container: StartedTestContainer;
  docker: ReturnType<ContainerRuntimeClient['container']['getById']>;
  label: string;
  timeoutMs: number;
  /** root's password in this container, random per server. */
  password: string;
  /** What a start's deadline and waits read. */
  clock: Clock;
}

/**
 * Polls until the server answers on its host port (the engine may publish a new one after each start) and stays
 * up a moment; returns that port. Rejects with the log tail, leaving the container stopped and its datadir intact
 * so an edited config can start it again.
 */
async function waitUntilServing(run: Running, base: ConnectionOptions, sinceMs: number): Promise<number> {
  const deadline = run.clock.nowMs() + run.timeoutMs;
  let why = `did not accept connections within ${Math.round(run.timeoutMs / 1000)} s`;
  while (run.clock.nowMs() < deadline) {
    const state = await run.docker.inspect();
    if (!state.State.Running) {
      why = `exited with code ${state.State.ExitCode}${state.State.OOMKilled ? ' (out of memory)' : ''}`;
      break;
    }
    const port = Number(state.NetworkSettings.Ports['3306/tcp']?.[0]?.HostPort);
    if (port && (await canConnect({ ...base, port }))) {
      // A plugin that crashes the server right after start (the seed's endless-restart case) shows up here.
      await run.clock.sleepMs(500);
      if ((await run.docker.inspect()).State.Running) return port;
    }
    await run.clock.sleepMs(250);
  }
  const id = run.container.getId();
  const log = (await containerLogTail(run.client, id, 25, sinceMs).catch(() => '')) || silentEntrypoint;
  await run.client.container.stop(run.docker, { timeout: 0 }).catch(() => {});
  throw new Error(`Server ${run.label} ${why}. Container log tail:\n${redact(log, [run.password])}`);
}

/** Takes the server down (SIGTERM with a grace period, or SIGKILL) and starts the same container again. */
async function stopThenStart(run: Running, how: 'graceful' | 'kill'): Promise<number> {
  const problem = await configProblem(run.container);
  if (how === 'graceful') {
    // testcontainers' restart() kills at once and, when its wait fails, removes the container and its data.
    await run.client.container.stop(run.docker, { timeout: 60_000 });
  } else {
    await run.docker.kill({ signal: 'SIGKILL' }).catch(() => {});
    await run.docker.wait({ condition: 'not-running' });
  }
  const since = run.clock.nowMs();
  await run.client.container.start(run.docker);
  try {
    return await waitUntilServing(run, rootOn(0, run.password), since);
  } catch (error) {
    // The images' entrypoint stops silently on an option the server rejects; the check run before stopping says
    // which. It is only an explanation: a plugin's options are unknown to --help on some versions (10.5), so it
    // never stops a start by itself.
    if (!problem) throw error;
    throw new Error(`Server ${run.label} rejects its config:\n${problem}`, { cause: error });
  }
}

const rootOn = (port: number, password: string): ConnectionOptions => ({
  host: '127.0.0.1',
  port,
  user: 'root',
  password,
});

async function runningServer(run: Running, initialOptions: ServerOptions): Promise<StartedServer> {
  const server = new ContainerServer(run, initialOptions);
  await server.open();
  return server;
}

/** A container this process started; its state is the fields below. */
class ContainerServer implements StartedServer {
  readonly #run: Running;
  readonly #reaper: ReturnType<typeof startContainerReaper>;
  readonly #unregister: () => void;
  /** The options the next start reads from the container's option file. */
  #options: ServerOptions;
  /** root on the host port the engine published at the last start. */
  #connection: ConnectionOptions;
  #session: SqlSession;
  /** Where the server keeps its data inside the container, asked once the first start held. */
  #datadir = '';
  #info: ServerInfo | undefined;
  #stopped = false;

  constructor(run: Running, options: ServerOptions) {
    this.#run = run;
    this.#reaper = startContainerReaper(run.container.getId());
    this.#options = options;
    this.#connection = rootOn(run.container.getMappedPort(3306), run.password);
    this.#session = new SqlSession(this.#connection);
    this.#unregister = registerCleanup(() => this.stop());
  }

  /** Checks the first start held and reads the datadir (the container is removed if not), then who the server is. */
  async open(): Promise<void> {
    this.#datadir = await serverDatadir(this.#run, this.#connection).catch(async (error: unknown) => {
      await this.stop();
      throw error;
    });
    this.#info = await identify(this.#session, 'container');
  }

  get info(): ServerInfo {
    if (!this.#info) throw new Error(`Server ${this.#run.label} has not been identified yet`);
    return this.#info;
  }

  get connection(): ConnectionOptions {
    return this.#connection;
  }

  query(sql: string): Promise<QueryResult> {
    return this.#session.query(sql);
  }

  restart(): Promise<void> {
    return this.#cycle('graceful');
  }

  killAndStart(): Promise<void> {
    return this.#cycle('kill');
  }

  async #cycle(how: 'graceful' | 'kill'): Promise<void> {
    await this.#session.close();
    this.#connection = rootOn(await stopThenStart(this.#run, how), this.#run.password);
    this.#session = new SqlSession(this.#connection);
  }

  /** The container's own receiver (container-syslog.ts) drained; an image without one has nothing to drain. */
  async drainSyslog(): Promise<void> {
    if (await containerReceiverUp(this.#run.container)) await drainContainerSyslog(this.#run.container);
  }

  async editConfig(edit: ConfigEdit): Promise<void> {
    this.#options = applyEdit(this.#options, edit);
    // The engine copies into a stopped container too, so a config that failed to start can be fixed.
    await this.#run.container.copyContentToContainer([
      { content: renderMyCnf(this.#options), target: cnfPath, mode: 0o644 },
    ]);
  }

  async errorLogTail(lines = 40): Promise<string> {
    const { client, container, password } = this.#run;
    return redact(await containerLogTail(client, container.getId(), lines), [password]);
  }

  listFiles(dir = '.'): Promise<ServerFile[]> {
    return listContainerFiles(this.#run.container, this.#datadir, dir);
  }

  readFile(file: string): Promise<Buffer> {
    return readContainerFile(this.#run.container, this.#datadir, file);
  }

  async pluginFileExists(soname: string): Promise<boolean> {
    const { rows } = await this.#session.query('SELECT @@plugin_dir AS dir');
    const dir = String(rows[0]?.dir ?? '').replace(/\/$/, '');
    return containerFileExists(this.#run.container, `${dir}/${soname}`);
  }

  // A cpuset, unlike taskset, outlasts restarts; every caller pins after its last restart anyway.
  async pinCpus(cpus: string): Promise<void> {
    await this.#run.docker.update({ CpusetCpus: cpus });
  }

  // The container's processes share this kernel: its host pid (the engine's State.Pid) is readable in /proc here.
  async residentBytes(): Promise<number | null> {
    const state = await this.#run.docker.inspect().catch(() => null);
    const root = state?.State.Running ? state.State.Pid : 0;
    const pid = root > 0 ? await serverProcessUnder(root) : null;
    return pid === null ? null : residentBytesOf(pid);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unregister();
    await this.#session.close();
    stopContainerReaper(this.#reaper);
    // Nothing in a throw-away container is worth a clean shutdown.
    await this.#run.container.stop({ timeout: 0, remove: true, removeVolumes: true });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** Checks the first start held (the wait strategy saw the log line only) and asks where the datadir is. */
async function serverDatadir(run: Running, connection: ConnectionOptions): Promise<string> {
  await waitUntilServing(run, connection, 0);
  const session = new SqlSession(connection);
  try {
    const { rows } = await session.query('SELECT @@datadir AS datadir');
    return String(rows[0]?.datadir ?? '/var/lib/mysql');
  } finally {
    await session.close();
  }
}
