import { Buffer } from 'node:buffer';
import path from 'node:path';
import { applyEdit, type ServerOptions } from '../../src/servers/my-cnf.ts';
import { SqlError } from '../../src/servers/sql-session.ts';
import type {
  ConfigEdit,
  QueryResult,
  Row,
  ServerFile,
  ServerInfo,
  StartedServer,
} from '../../src/servers/started-server.ts';

/**
 * A scripted stand-in for a real server, for unit tests of procedures and checks. It answers statements from a
 * list of rules, keeps my.cnf and the datadir in memory, and records every statement, my.cnf edit and restart in
 * order. It knows no plugin: a plugin's behaviour is the test's script.
 */

/** What the fake answers to one statement. */
export interface FakeReply {
  rows?: Row[];
  warnings?: { code: number; message: string; level?: string }[];
  /** Refuse the statement the way the server does: an SqlError with this errno. */
  error?: { errno: number; message: string; sqlState?: string };
}

export interface FakeCall {
  sql: string;
  /** The rule's regex match, or null for a string rule. */
  match: RegExpExecArray | null;
  server: FakeServer;
}

export interface FakeRule {
  /** A string matches the whole statement, ignoring case and runs of whitespace; a regex is tested as given. */
  match: string | RegExp;
  reply: FakeReply | ((call: FakeCall) => FakeReply);
}

export interface FakeScript {
  info?: Partial<ServerInfo>;
  /** [mysqld] options of the first start. */
  config?: Record<string, string | null>;
  /** Datadir files at the first start, by datadir-relative name. */
  files?: Record<string, string>;
  /** Plugin libraries present in the plugin dir. */
  pluginFiles?: string[];
  /** Tried in order; the first that matches answers. */
  rules?: FakeRule[];
  /** Runs at every start, the first included; a returned line refuses the start and goes to the error log. */
  onStart?: (server: FakeServer) => string | undefined;
  /** A statement no rule matches: 'ok' (no rows, the default) or 'error' (reject, to catch surprises). */
  unmatched?: 'ok' | 'error';
}

export type FakeEvent =
  | { kind: 'sql'; sql: string; errno: number | null }
  | { kind: 'config'; edit: ConfigEdit }
  | { kind: 'start'; cause: 'restart' | 'kill'; refused: string | null };

export interface FakeServer extends StartedServer {
  readonly transcript: readonly FakeEvent[];
  /** The [mysqld] options the next start uses, names normalised like my.cnf's (dashes as underscores). */
  readonly config: ReadonlyMap<string, string | null>;
  readonly running: boolean;
  /** The transcript as one readable line per event, for order assertions. */
  lines(): string[];
  pluginFileExists(soname: string): Promise<boolean>;
  writeFile(name: string, text: string): void;
  appendFile(name: string, text: string): void;
  /** Keeps the file's id, as a rename on disk keeps the inode. */
  renameFile(from: string, to: string): void;
  removeFile(name: string): void;
  /** Appends a line to the error log (what errorLogTail shows). */
  logError(line: string): void;
}

interface StoredFile {
  data: Buffer;
  fileId: string;
}

const normalise = (sql: string) => sql.trim().replace(/\s+/g, ' ').toLowerCase();
const fileName = (name: string) => path.posix.normalize(name).replace(/^\.\//, '');

export function describeEvent(event: FakeEvent): string {
  if (event.kind === 'sql') return `SQL ${event.sql}${event.errno === null ? '' : ` → ERROR ${event.errno}`}`;
  if (event.kind === 'start') {
    const what = event.cause === 'kill' ? 'kill and start' : 'restart';
    return event.refused === null ? what : `${what} → refused`;
  }
  const set = Object.entries(event.edit.set ?? {}).map(([k, v]) => (v === null ? k : `${k}=${v}`));
  const parts = [
    ...(set.length ? [`set ${set.join(', ')}`] : []),
    ...(event.edit.unset ?? []).map((k) => `unset ${k}`),
  ];
  return `my.cnf ${parts.join(', ')}`;
}

function findReply(script: FakeScript, sql: string, server: FakeServer): FakeReply {
  for (const rule of script.rules ?? []) {
    const match = typeof rule.match === 'string' ? null : rule.match.exec(sql);
    const hit = typeof rule.match === 'string' ? normalise(rule.match) === normalise(sql) : match !== null;
    if (hit) return typeof rule.reply === 'function' ? rule.reply({ sql, match, server }) : rule.reply;
  }
  if (script.unmatched === 'error') throw new Error(`The fake server has no rule for '${sql}'`);
  return {};
}

function toResult(sql: string, reply: FakeReply): QueryResult {
  if (reply.error) {
    const { errno, message, sqlState = 'HY000' } = reply.error;
    // Worded like SqlSession's errors, so messages built from them read the same as against a real server.
    throw new SqlError(`ERROR ${errno} (${sqlState}): ${message} [in: ${sql}]`, errno, sqlState);
  }
  const warnings = (reply.warnings ?? []).map(({ level = 'Warning', code, message }) => ({
    level,
    code,
    message,
  }));
  return { rows: (reply.rows ?? []).map((row) => ({ ...row })), warnings };
}

type FakeDatadir = Pick<
  FakeServer,
  'listFiles' | 'readFile' | 'writeFile' | 'appendFile' | 'renameFile' | 'removeFile'
>;

/** The datadir in memory; each file keeps an id across renames, as a file on disk keeps its inode. */
function fakeDatadir(): FakeDatadir {
  const files = new Map<string, StoredFile>();
  let nextFileId = 1;
  const put = (name: string, data: Buffer) => {
    const key = fileName(name);
    files.set(key, { data, fileId: files.get(key)?.fileId ?? `fake-${nextFileId++}` });
  };
  const existing = (name: string): StoredFile => {
    const file = files.get(fileName(name));
    if (!file) throw new Error(`ENOENT: '${name}' does not exist in the fake server's datadir`);
    return file;
  };
  return {
    async listFiles(dir = '.') {
      const wanted = fileName(dir);
      return [...files]
        .filter(([name]) => path.posix.dirname(name) === wanted)
        .map(([name, file]): ServerFile => ({ name, sizeBytes: file.data.length, fileId: file.fileId }));
    },
    readFile: async (name) => Buffer.from(existing(name).data),
    writeFile: (name, text) => put(name, Buffer.from(text)),
    appendFile: (name, text) => {
      const before = files.get(fileName(name))?.data ?? Buffer.alloc(0);
      put(name, Buffer.concat([before, Buffer.from(text)]));
    },
    renameFile(from, to) {
      const file = existing(from);
      files.delete(fileName(from));
      files.set(fileName(to), file);
    },
    removeFile(name) {
      existing(name);
      files.delete(fileName(name));
    },
  };
}

/** A fake server, already started (through `onStart`, which may refuse: then this throws). */
export function createFakeServer(script: FakeScript = {}): FakeServer {
  const info: ServerInfo = { flavor: 'mysql', version: '8.0.35', target: 'local', ...script.info };
  const label = `fake ${info.flavor} ${info.version}`;
  const transcript: FakeEvent[] = [];
  const errorLog: string[] = [];
  let options: ServerOptions = applyEdit(new Map(), { set: script.config ?? {} });
  let running = false;
  let stopped = false;

  function start(cause: 'restart' | 'kill' | null): void {
    if (stopped) throw new Error(`Server ${label} was stopped; it cannot start again`);
    running = false;
    const refused = script.onStart?.(server) ?? null;
    if (cause) transcript.push({ kind: 'start', cause, refused });
    if (refused !== null) {
      errorLog.push(refused);
      throw new Error(`Server ${label} did not start. Error log tail:\n${errorLog.slice(-25).join('\n')}`);
    }
    running = true;
  }

  async function query(sql: string): Promise<QueryResult> {
    if (!running) throw new Error(`Query failed (ECONNREFUSED): ${label} is not running [in: ${sql}]`);
    const event: FakeEvent = { kind: 'sql', sql, errno: null };
    transcript.push(event);
    try {
      return toResult(sql, findReply(script, sql, server));
    } catch (error) {
      if (error instanceof SqlError) event.errno = error.errno;
      throw error;
    }
  }

  async function stop(): Promise<void> {
    running = false;
    stopped = true;
  }

  const server: FakeServer = {
    info,
    connection: { host: '127.0.0.1', port: 3306, user: 'root', password: '' },
    transcript,
    get config() {
      return options;
    },
    get running() {
      return running;
    },
    lines: () => transcript.map(describeEvent),
    query,
    restart: async () => start('restart'),
    killAndStart: async () => start('kill'),
    async editConfig(edit) {
      transcript.push({ kind: 'config', edit: structuredClone(edit) });
      options = applyEdit(options, edit);
    },
    errorLogTail: async (lines = 40) => errorLog.slice(-lines).join('\n'),
    pluginFileExists: async (soname) => (script.pluginFiles ?? []).includes(soname),
    logError: (line) => {
      errorLog.push(line);
    },
    ...fakeDatadir(),
    stop,
    [Symbol.asyncDispose]: stop,
  };

  for (const [name, text] of Object.entries(script.files ?? {})) server.writeFile(name, text);
  start(null);
  return server;
}
