import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
import type { ConfigEdit, StartedServer } from './started-server.ts';
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
  let session = new SqlSession(connection);
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
  const cnf = path.join(dir, 'auditbench.cnf');
  const label = `${info.flavor} ${info.version} (external, ${where})`;
  let options: ServerOptions = new Map();
  let applied = false;

  function requireCommand(what: string): string {
    if (opts.restartCmd) return opts.restartCmd;
    throw new NeedsRestartCommandError(
      `${what} the external server at ${where} needs a restart command: set AUDITBENCH_RESTART_CMD (docs/targets.md, "external")`,
    );
  }

  async function errorLogTail(lines = 40): Promise<string> {
    if (!logError) {
      const why = locality.local ? 'it logs to stderr, not to a file' : locality.why;
      return `(the error log of ${label} cannot be read here: ${why})`;
    }
    return tailLines(await readFileTail(logError).catch((error: Error) => `(${error.message})`), lines);
  }

  async function restartWith(mode: RestartMode, what: string): Promise<void> {
    const command = requireCommand(what);
    await writeFile(cnf, renderMyCnf(options));
    await session.close();
    const since = Date.now();
    await runRestartCommand(command, mode, cnf);
    const outcome = await waitUntilRestarted(connection, since, opts.startTimeoutMs ?? 60_000);
    if (!outcome.ready) {
      throw new Error(`Server ${label} ${outcome.why}. Error log tail:\n${await errorLogTail(25)}`);
    }
    session = new SqlSession(connection);
    applied = options.size > 0;
  }

  function localDatadir(what: string): string {
    if (locality.local) return locality.datadir;
    throw new Error(
      `Cannot ${what} of ${label}: ${locality.why}; only a server whose files are here can be read`,
    );
  }

  let stopped = false;
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    unregister();
    try {
      // Leave the server as we found it: started with its own options only.
      options = new Map();
      if (applied) await restartWith('graceful', 'Restoring');
    } finally {
      await session.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  const unregister = registerCleanup(stop);

  if (opts.options && Object.keys(opts.options).length > 0) {
    options = applyEdit(options, { set: opts.options });
    await restartWith('graceful', 'Applying options to').catch(async (error: unknown) => {
      await stop().catch(() => {});
      throw error;
    });
  }

  return {
    info,
    connection,
    query: (sql) => session.query(sql),
    restart: () => restartWith('graceful', 'Restarting'),
    killAndStart: () => restartWith('kill', 'Killing and starting'),
    async editConfig(edit: ConfigEdit) {
      requireCommand('Changing the config of');
      options = applyEdit(options, edit);
    },
    errorLogTail,
    // Its pid file is re-read each time: a restart gives the server a new pid.
    async residentBytes() {
      if (!locality.local) return null;
      const pid = Number((await readFile(locality.pidFile, 'utf8').catch(() => '')).trim());
      return Number.isInteger(pid) && pid > 0 ? residentBytesOf(pid) : null;
    },
    listFiles: async (sub = '.') => listLocalFiles(localDatadir(`list files in ${sub}`), sub),
    readFile: async (file) => readLocalFile(localDatadir(`read ${file}`), file),
    pluginFileExists: (soname) => pluginFileExists(session, locality, info.flavor === 'mariadb', soname),
    stop,
    [Symbol.asyncDispose]: stop,
  };
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
