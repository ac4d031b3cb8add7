import mysql from 'mysql2/promise';
import { newPassword } from '../servers/server-account.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import type { Outcome, SentMarker } from './count.ts';
import type { EventKind } from './kinds.ts';
import { connectUser, failedLoginUser, type MarkerNames, markerStatement, statementUser } from './markers.ts';

/** One marker to send: its kind and n (1-based within the phase and kind). */
export interface MarkerItem {
  kind: EventKind;
  n: number;
}

// Upper and lower case, a digit and a sign: a password check plugin a DBA's option file keeps accepts it.
const CONNECT_PASSWORD = 'Ab-connect-pw1';
const WRONG_PASSWORD = 'ab-wrong-pw';
// Random per process, never printed: the statement user exists only for the phases of this run.
const STATEMENT_PASSWORD = newPassword();
const ER_NO_SUCH_TABLE = 1146;
const ER_ACCESS_DENIED = 1045;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Creates the marker schema and table, the phase's connect user, and its statement user (SELECT, INSERT and ALTER on
 * the marker schema only: the read, write, failing and DDL markers), before any marker is sent.
 */
export async function prepareMarkers(server: StartedServer, names: MarkerNames): Promise<void> {
  const user = connectUser(names.tag);
  const statements = statementUser(names.tag);
  await server.query(`CREATE DATABASE IF NOT EXISTS \`${names.schema}\``);
  await server.query(
    `CREATE TABLE IF NOT EXISTS \`${names.schema}\`.markers (id INT AUTO_INCREMENT PRIMARY KEY, kind VARCHAR(16), n INT)`,
  );
  await server.query(`CREATE TABLE IF NOT EXISTS \`${names.schema}\`.ddl_target (id INT)`);
  await server.query(`CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '${CONNECT_PASSWORD}'`);
  await server.query(`CREATE USER IF NOT EXISTS '${statements}'@'%' IDENTIFIED BY '${STATEMENT_PASSWORD}'`);
  await server.query(`GRANT SELECT, INSERT, ALTER ON \`${names.schema}\`.* TO '${statements}'@'%'`);
}

/** Items for exactly `perKind` markers of each kind, numbered from `first`, interleaved so every connection sends every kind. */
export function markerItems(kinds: EventKind[], perKind: number, first = 1): MarkerItem[] {
  const items: MarkerItem[] = [];
  for (let n = first; n < first + perKind; n++) for (const kind of kinds) items.push({ kind, n });
  return items;
}

/** An endless round-robin of kinds, for a stream cut short by a crash. */
export function* endlessItems(kinds: EventKind[]): Generator<MarkerItem> {
  for (let n = 1; ; n++) for (const kind of kinds) yield { kind, n };
}

interface MysqlError {
  errno?: number;
  code?: string;
  message?: string;
}

const errorOf = (error: unknown): MysqlError => (error ?? {}) as MysqlError;
// mysql2 gives a server's refusal an errno; a dead socket (ECONNRESET, PROTOCOL_CONNECTION_LOST) has none.
const isAnswer = (e: MysqlError) => typeof e.errno === 'number' && e.errno > 0 && e.code !== 'ECONNREFUSED';
const describe = (e: MysqlError) =>
  `${e.code ?? 'no code'}${e.errno ? ` ${e.errno}` : ''}: ${e.message ?? ''}`;

function connect(conn: ConnectionOptions, user: string, password: string): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: conn.host,
    port: conn.port,
    user,
    password,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
}

/** Sends one marker; a statement goes on the worker's own connection, opened on first use. */
async function send(
  item: MarkerItem,
  names: MarkerNames,
  conn: ConnectionOptions,
  session: () => Promise<mysql.Connection>,
): Promise<SentMarker> {
  const { kind, n } = item;
  const settle = (outcome: Outcome, id: number, detail?: string): SentMarker =>
    detail === undefined ? { kind, id, outcome } : { kind, id, outcome, detail };
  try {
    if (kind === 'connect') {
      const c = await connect(conn, connectUser(names.tag), CONNECT_PASSWORD);
      const id = c.threadId ?? -n;
      await c.end().catch(() => c.destroy());
      return settle(id > 0 ? 'acked' : 'refused', id, id > 0 ? undefined : 'no connection id');
    }
    if (kind === 'failedLogin') {
      const c = await connect(conn, failedLoginUser(names.tag, n), WRONG_PASSWORD);
      c.destroy();
      return settle('refused', n, 'the login was accepted');
    }
    await (await session()).query(markerStatement(names, kind, n));
    return kind === 'failed' ? settle('refused', n, 'the failing statement succeeded') : settle('acked', n);
  } catch (error) {
    const e = errorOf(error);
    const id = kind === 'connect' ? -n : n;
    if (!isAnswer(e)) return settle('unanswered', id, describe(e));
    const expected = kind === 'failed' ? ER_NO_SUCH_TABLE : kind === 'failedLogin' ? ER_ACCESS_DENIED : null;
    return e.errno === expected ? settle('acked', id) : settle('refused', id, describe(e));
  }
}

export interface MarkerRun {
  sent: SentMarker[];
  /** Set once a connection died: no worker starts another marker after that. */
  connectionLost: boolean;
}

/**
 * Sends the items from `connections` workers at once; each takes the next item when its last one is answered. After
 * its last item a worker runs one more statement on its connection: MariaDB answers a statement before it calls the
 * audit plugins, so the next answer on the same connection means the plugins have seen the previous one.
 */
export async function runMarkers(
  conn: ConnectionOptions,
  names: MarkerNames,
  items: Iterable<MarkerItem>,
  options: { connections: number; signal?: AbortSignal },
): Promise<MarkerRun> {
  const queue = items[Symbol.iterator]();
  const run: MarkerRun = { sent: [], connectionLost: false };
  const worker = async () => {
    let connection: mysql.Connection | null = null;
    const session = async () => {
      connection ??= await connect(conn, statementUser(names.tag), STATEMENT_PASSWORD);
      return connection;
    };
    try {
      while (!run.connectionLost && !options.signal?.aborted) {
        const next = queue.next();
        if (next.done) break;
        const sent = await send(next.value, names, conn, session);
        run.sent.push(sent);
        if (sent.outcome === 'unanswered') run.connectionLost = true;
      }
      if (!run.connectionLost) await (await session()).query('SELECT 1');
    } finally {
      const c = connection as mysql.Connection | null;
      if (c) await c.end().catch(() => c.destroy());
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  return run;
}
