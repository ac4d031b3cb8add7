import type { Buffer } from 'node:buffer';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Clock, realClock } from '../clock/clock.ts';
import { type Dsn, externalTargetRefusal } from '../config/env.ts';
import { registerCleanup, tempPrefix } from './cleanup.ts';
import {
  fileExists,
  type Locality,
  listLocalFiles,
  locate,
  readFileTail,
  readLocalFile,
} from './local-datadir.ts';
import { applyEdit, renderMyCnf, type ServerOptions } from './my-cnf.ts';
import { writeOwnerRecord } from './owner-record.ts';
import { residentBytesOf } from './resident-memory.ts';
import { type RestartMode, runRestartCommand, waitUntilRestarted } from './restart-command.ts';
import { identify } from './server-identity.ts';
import { SqlSession } from './sql-session.ts';
import type {
  ConfigEdit,
  ConnectionOptions,
  QueryResult,
  ServerFile,
  ServerInfo,
  StartedServer,
} from './started-server.ts';
import { tailLines } from './tail.ts';

export interface ExternalServerOptions {
  dsn: Dsn;
  /** AUDITBENCH_RESTART_CMD; without it the server cannot be restarted, killed or reconfigured. */
  restartCmd: string | null;
  /** AUDITBENCH_DSN_DISPOSABLE=1: the user says the server may be written to; else nothing connects. */
  disposable: boolean;
  /** [mysqld] options to apply now (needs the restart command). */
  options?: Record<string, string | null>;
  /** How long the server may take to answer after the restart command returned. */
  startTimeoutMs?: number;
  /** What a restart's deadline and waits read; the real clock by default. */
  clock?: Clock;
}

/** What a check needs that this server cannot do; suites skip the check with the message. */
export class NeedsRestartCommandError extends Error {
  override name = 'NeedsRestartCommandError';
}

export async function startExternalServer(opts: ExternalServerOptions): Promise<StartedServer> {
  const refusal = externalTargetRefusal({
    target: 'external',
    dsn: opts.dsn,
    dsnDisposable: opts.disposable,
  });
  if (refusal) throw new Error(refusal);
  const connection = { ...opts.dsn };
  const where = `${connection.host}:${connection.port}`;
  const session = new SqlSession(connection);
  const info = await identify(session, 'external').catch((error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot reach the server at AUDITBENCH_DSN (${where} as ${connection.user}): ${why}`, {
      cause: error,
    });
  });
  const locality = await locate(session);
  const logError = locality.local ? await errorLogPath(session, locality.datadir) : null;
  // Only the option file given to the restart command lives here; the server's own files are not ours.
  const dir = await mkdtemp(path.join(os.tmpdir(), `${tempPrefix}external-`));
  await writeOwnerRecord(dir);
  const server = new ExternalServer({ opts, connection, session, info, locality, logError, dir });
  if (opts.options && Object.keys(opts.options).length > 0) {
    await server.applyFirst(opts.options).catch(async (error: unknown) => {
      await server.stop().catch(() => {});
      throw error;
    });
  }
  return server;
}

/** What startExternalServer found out about the server before it is handed over. */
interface Reached {
  opts: ExternalServerOptions;
  connection: ConnectionOptions;
  /** The session that identified the server; the server's first. */
  session: SqlSession;
  info: ServerInfo;
  locality: Locality;
  /** The error log file, when the server writes one here. */
  logError: string | null;
  /** auditbench's folder for the option file handed to the restart command. */
  dir: string;
}

/** A server someone else runs, restarted only through AUDITBENCH_RESTART_CMD; its state is the fields below. */
class ExternalServer implements StartedServer {
  readonly info: ServerInfo;
  readonly connection: ConnectionOptions;
  readonly #reached: Reached;
  readonly #where: string;
  readonly #label: string;
  readonly #cnf: string;
  readonly #clock: Clock;
  readonly #unregister: () => void;
  #session: SqlSession;
  /** auditbench's [mysqld] options, written to the option file at the next restart. */
  #options: ServerOptions = new Map();
  /** Whether the server now runs with auditbench's options, so stopping must restart it without them. */
  #applied = false;
  #stopped = false;

  constructor(reached: Reached) {
    this.#reached = reached;
    this.info = reached.info;
    this.connection = reached.connection;
    this.#session = reached.session;
    this.#where = `${reached.connection.host}:${reached.connection.port}`;
    this.#cnf = path.join(reached.dir, 'auditbench.cnf');
    this.#label = `${reached.info.flavor} ${reached.info.version} (external, ${this.#where})`;
    this.#clock = reached.opts.clock ?? realClock;
    this.#unregister = registerCleanup(() => this.stop());
  }

  /** The options asked for at start, applied by a restart. */
  async applyFirst(options: Record<string, string | null>): Promise<void> {
    this.#options = applyEdit(this.#options, { set: options });
    await this.#restartWith('graceful', 'Applying options to');
  }

  #requireCommand(what: string): string {
    const command = this.#reached.opts.restartCmd;
    if (command) return command;
    throw new NeedsRestartCommandError(
      `${what} the external server at ${this.#where} needs a restart command: set AUDITBENCH_RESTART_CMD (docs/targets.md, "external")`,
    );
  }

  async #restartWith(mode: RestartMode, what: string): Promise<void> {
    const command = this.#requireCommand(what);
    await writeFile(this.#cnf, renderMyCnf(this.#options));
    await this.#session.close();
    const since = this.#clock.nowMs();
    await runRestartCommand(command, mode, this.#cnf);
    const timeoutMs = this.#reached.opts.startTimeoutMs ?? 60_000;
    const outcome = await waitUntilRestarted(this.connection, since, timeoutMs, this.#clock);
    if (!outcome.ready) {
      throw new Error(
        `Server ${this.#label} ${outcome.why}. Error log tail:\n${await this.errorLogTail(25)}`,
      );
    }
    this.#session = new SqlSession(this.connection);
    this.#applied = this.#options.size > 0;
  }

  #localDatadir(what: string): string {
    const { locality } = this.#reached;
    if (locality.local) return locality.datadir;
    throw new Error(
      `Cannot ${what} of ${this.#label}: ${locality.why}; only a server whose files are here can be read`,
    );
  }

  query(sql: string): Promise<QueryResult> {
    return this.#session.query(sql);
  }

  restart(): Promise<void> {
    return this.#restartWith('graceful', 'Restarting');
  }

  killAndStart(): Promise<void> {
    return this.#restartWith('kill', 'Killing and starting');
  }

  async editConfig(edit: ConfigEdit): Promise<void> {
    this.#requireCommand('Changing the config of');
    this.#options = applyEdit(this.#options, edit);
  }

  async errorLogTail(lines = 40): Promise<string> {
    const { logError, locality } = this.#reached;
    if (!logError) {
      const why = locality.local ? 'it logs to stderr, not to a file' : locality.why;
      return `(the error log of ${this.#label} cannot be read here: ${why})`;
    }
    return tailLines(await readFileTail(logError).catch((error: Error) => `(${error.message})`), lines);
  }

  // Its pid file is re-read each time: a restart gives the server a new pid.
  async residentBytes(): Promise<number | null> {
    const { locality } = this.#reached;
    if (!locality.local) return null;
    const pid = Number((await readFile(locality.pidFile, 'utf8').catch(() => '')).trim());
    return Number.isInteger(pid) && pid > 0 ? residentBytesOf(pid) : null;
  }

  async listFiles(sub = '.'): Promise<ServerFile[]> {
    return listLocalFiles(this.#localDatadir(`list files in ${sub}`), sub);
  }

  async readFile(file: string): Promise<Buffer> {
    return readLocalFile(this.#localDatadir(`read ${file}`), file);
  }

  pluginFileExists(soname: string): Promise<boolean> {
    return pluginFileExists(this.#session, this.#reached.locality, this.info.flavor === 'mariadb', soname);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unregister();
    try {
      // Leave the server as we found it: started with its own options only.
      this.#options = new Map();
      if (this.#applied) await this.#restartWith('graceful', 'Restoring');
    } finally {
      await this.#session.close();
      await rm(this.#reached.dir, { recursive: true, force: true });
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** The error log file, when the server writes one (not stderr). */
async function errorLogPath(session: SqlSession, datadir: string): Promise<string | null> {
  const { rows } = await session.query('SELECT @@log_error AS file');
  const file = String(rows[0]?.file ?? '');
  return file === '' || file === 'stderr' ? null : path.resolve(datadir, file);
}

async function pluginFileExists(
  session: SqlSession,
  locality: Locality,
  isMariadb: boolean,
  soname: string,
): Promise<boolean> {
  if (locality.local) {
    const { rows } = await session.query('SELECT @@plugin_dir AS dir');
    return fileExists(path.join(String(rows[0]?.dir ?? ''), soname));
  }
  if (isMariadb) {
    // MariaDB lists a library's plugins without installing them, and nothing for a library it cannot find.
    const { rows } = await session.query(`SHOW PLUGINS SONAME '${soname.replaceAll("'", "''")}'`);
    return rows.length > 0;
  }
  throw new Error(
    `Cannot tell whether ${soname} is in the external server's plugin directory: ${locality.why}`,
  );
}
