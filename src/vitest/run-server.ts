import { randomBytes } from 'node:crypto';
import type { Environment } from '../config/env.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import type { AuditEvent } from '../plugins/audit-event.ts';
import { lifecycleContext } from '../plugins/lifecycle/index.ts';
import { type LogMark, type LogSpan, readSpan, takeMark, type UnreadableLine } from '../plugins/log-mark.ts';
import { listLogFiles, readLogEvents, waitForEvents } from '../plugins/log-reader.ts';
import { type LiveConnection, unattributed } from '../plugins/logs/attribution.ts';
import type { LogFormat } from '../plugins/logs/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps, setGlobals } from '../plugins/steps.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { newPassword, redact } from '../servers/server-account.ts';
import { SqlError, SqlSession } from '../servers/sql-session.ts';
import { startServer } from '../servers/start-server.ts';
import type { QueryResult, StartedServer } from '../servers/started-server.ts';
import { liveConnection } from '../servers/traffic-accounts.ts';
import { grantStatement } from './account-grants.ts';
import { type AuditLogBytes, type AuditRecord, type AuditRecords, withClass } from './audit-records.ts';

/** Statements sent as one account on one kept connection. */
export interface Account {
  readonly user: string;
  query(sql: string): Promise<QueryResult>;
  /** The server's id of this session's connection, as audit records carry it. */
  connectionId(): Promise<number>;
  /** Another session as the same account, on a connection of its own. */
  another(): Account;
  close(): Promise<void>;
}

/** A server running one configured run: its startup options and option file, its settings, logging on. */
export interface RunServer {
  readonly run: ResolvedRun;
  readonly server: StartedServer;
  /** The run's profile, reading its log where the configuration put it. */
  readonly profile: PluginProfile;
  /** The account, created the first time (with these grants, on '%' and 'localhost'), and a session as it. */
  account(name: string, grants?: string[]): Promise<Account>;
  /** A login as `name` with a wrong password; resolves with the server's refusal (rejects if it got in). */
  failedLogin(name: string): Promise<string>;
  /**
   * One more statement on every session a test used, each answered: the server writes a statement's audit record
   * after it answers, so only the session's next statement shows the record was written.
   */
  barrier(text: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where a test's records start: the plugin's file then, by identity (device and inode), and a byte offset in it.
 * Rotation moves the file and keeps the mark; a rotation that deletes it makes since() fail, naming it.
 */
export type Mark = LogMark;

export interface AuditLog {
  mark(): Promise<Mark>;
  /**
   * The records written since the mark. With `closedBy`, every session the test used first sends one more
   * statement (a barrier: the server writes a statement's record after answering it), then that account logs in on a
   * connection of its own and sends a marker; only the records before the marker's first record are returned. The
   * log has then caught up with everything the test sent, so a "not logged" cannot pass on lag. Lines that do not
   * parse, and records whose connection does not vouch for the account they name, are in `rejected`, never dropped.
   * Throws, naming the file, when rotation deleted the file the mark was taken in.
   */
  since(mark: Mark, options?: { closedBy?: Account; waitMs?: number }): Promise<AuditRecords>;
  /**
   * Every log file's bytes, rotated copies included, and the records parsed from them. With `closedBy`, read after
   * that account's marker is in the log (the barrier and marker of `since`), so a `.not.toHoldText` cannot pass on lag.
   */
  bytes(options?: { closedBy?: Account; waitMs?: number }): Promise<AuditLogBytes>;
}

const quote = (value: string): string => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
const HOSTS = ['%', 'localhost'];

/** Starts a server of the environment's target and brings the run's configuration up on it, logging on. */
export async function startRunServer(config: Environment, run: ResolvedRun): Promise<RunServer> {
  const server = await startServer(config);
  const { profile } = lifecycleContext(server, run.profile);
  try {
    await runSteps(server, profile.install, `Installing ${profile.name}`);
    await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
    await runSteps(server, profile.enable, `Enabling ${profile.name}`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const passwords = new Map<string, string>();
  const sessions: SqlSession[] = [];
  const used = new Set<SqlSession>();
  return {
    run,
    server,
    profile,
    async account(name, grants = []) {
      let password = passwords.get(name);
      if (password === undefined) {
        password = newPassword();
        await createAccount(server, name, password, grants);
        passwords.set(name, password);
      }
      const connection = liveConnection(server, name, password);
      const open = (): Account => {
        const session = new SqlSession(connection);
        sessions.push(session);
        return {
          user: name,
          query: (sql) => {
            used.add(session);
            return session.query(sql);
          },
          connectionId: () => session.connectionId(),
          another: open,
          close: () => session.close(),
        };
      };
      return open();
    },
    async failedLogin(name) {
      const wrong = `${passwords.get(name) ?? 'no-such-password'}-wrong`;
      const session = new SqlSession(liveConnection(server, name, wrong));
      try {
        await session.query('SELECT 1');
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      } finally {
        await session.close();
      }
      throw new Error(`A login as '${name}' with a wrong password was let in`);
    },
    async barrier(text) {
      for (const session of used) await session.query(`DO '${text}'`).catch(() => undefined);
    },
    async close() {
      used.clear();
      for (const session of sessions.splice(0)) await session.close();
      await server.stop();
    },
  };
}

async function createAccount(server: StartedServer, name: string, password: string, grants: string[]) {
  const users = HOSTS.map((host) => `${quote(name)}@'${host}' IDENTIFIED BY ${quote(password)}`).join(', ');
  const statements = [
    `CREATE USER ${users}`,
    ...grants.flatMap((grant) => HOSTS.map((host) => grantStatement(grant, `${quote(name)}@'${host}'`))),
  ];
  for (const sql of statements) {
    await server.query(sql).catch((error: unknown) => {
      const message = error instanceof SqlError ? error.message : String(error);
      throw new Error(`Creating account '${name}': ${redact(message, [password])}`, { cause: error });
    });
  }
}

const CLOSE_WAIT_MS = 5_000;

/** The run's audit log on its server, read by the profile's own parser. */
export function auditLog(target: RunServer): AuditLog {
  const { server, profile } = target;
  const format = profile.log.format;
  if (format === null) throw new Error(`${profile.name} writes no log file auditbench can read`);
  return {
    mark: () => takeMark(server, profile),
    async since(mark, options = {}) {
      const { closedBy, waitMs = CLOSE_WAIT_MS } = options;
      if (!closedBy) {
        const span = await readSpan(server, profile, mark);
        const read = spanRecords(format, span, span.events.length, await liveConnections(server), null);
        return { format, ...read, closedBy: null, notClosedBecause: 'no closing marker was asked for' };
      }
      const closing = await sendClosing(target, closedBy);
      const found = (s: LogSpan) => s.events.findIndex((e, i) => i >= s.from && closing.isMarker(e));
      const span = await waitForSpan(server, profile, mark, (s) => found(s) !== -1, waitMs);
      const at = found(span);
      const live = await liveConnections(server);
      if (at === -1) {
        const read = spanRecords(format, span, span.events.length, live, null, closing.ours);
        return { format, ...read, closedBy: null, notClosedBecause: notClosed(closedBy, waitMs) };
      }
      const read = spanRecords(format, span, at, live, closing.id, closing.ours);
      return { format, ...read, closedBy: closedBy.user, notClosedBecause: null };
    },
    async bytes(options = {}) {
      const { closedBy, waitMs = CLOSE_WAIT_MS } = options;
      const closure = closedBy
        ? await closeLog(target, closedBy, waitMs)
        : { closedBy: null, notClosedBecause: 'no closing marker was asked for' };
      const files = [];
      for (const file of await listLogFiles(server, profile))
        files.push({ name: file.name, bytes: new Uint8Array(await server.readFile(file.name)) });
      return { files, records: withClass(format, (await readLogEvents(server, profile)).events), ...closure };
    },
  };
}

/**
 * The span's records up to `end`, and every line of it a reader cannot trust: lines that did not parse, and records
 * not attributed to the account they name (src/plugins/logs/attribution.ts). Neither is dropped: a matcher shows them.
 */
function spanRecords(
  format: LogFormat,
  span: LogSpan,
  end: number,
  live: LiveConnection[],
  closedAt: number | null,
  ours: (e: Pick<AuditEvent, 'queryText'>) => boolean = () => true,
): { records: AuditRecord[]; rejected: UnreadableLine[] } {
  const events = span.events.slice(0, end);
  const refused = new Map(unattributed(events, span.from, live, closedAt).map((u) => [u.index, u.reason]));
  const kept: AuditEvent[] = [];
  // A line holding the barrier's or the marker's text is auditbench's own, however it reads.
  const rejected = span.unreadable.filter((l) => l.line === null || ours({ queryText: l.text }));
  for (const [i, e] of events.entries()) {
    if (i < span.from || !ours(e)) continue;
    const why = refused.get(i);
    if (why === undefined) kept.push(e);
    else rejected.push({ file: span.fileOf[i] ?? '', line: null, text: recordText(e), reason: why });
  }
  return { records: withClass(format, kept), rejected };
}

/** A refused record as parsed (its raw line is not kept): operation, account, connection, where, statement. */
const recordText = (e: AuditEvent): string =>
  [
    e.operation,
    `${e.user}@${e.host}`,
    `conn ${e.connectionId}`,
    e.database && `db ${e.database}`,
    e.object && `object ${e.object}`,
    e.queryText && JSON.stringify(e.queryText),
  ]
    .filter(Boolean)
    .join(' ');

/** The connections the server has open, by account: whose a session opened before the log began is. */
async function liveConnections(server: StartedServer): Promise<LiveConnection[]> {
  const { rows } = await server.query('SELECT ID AS id, USER AS user FROM information_schema.PROCESSLIST');
  return rows.map((r) => ({ id: Number(r.id), user: String(r.user) }));
}

/** Reads the span until `found` holds or the wait is over: a buffered plugin writes a moment after answering. */
async function waitForSpan(
  server: StartedServer,
  profile: PluginProfile,
  mark: Mark,
  found: (span: LogSpan) => boolean,
  waitMs: number,
  clock: Clock = realClock,
): Promise<LogSpan> {
  const deadline = clock.nowMs() + waitMs;
  for (;;) {
    const span = await readSpan(server, profile, mark);
    if (found(span) || clock.nowMs() >= deadline) return span;
    await clock.sleepMs(100);
  }
}

/** What tells the records a closing left in the log: the marker connection's id and text, and auditbench's own. */
interface Closing {
  /** The marker connection's id. */
  id: number;
  isMarker(e: Pick<AuditEvent, 'user' | 'connectionId' | 'queryText'>): boolean;
  /** False for the barrier's and the marker's statements: they are auditbench's, not the test's. */
  ours(e: Pick<AuditEvent, 'queryText'>): boolean;
}

/**
 * The closing steps since() and bytes() share: one more statement on every session the test used (the barrier), then
 * the account's marker on a connection of its own. The log has caught up with the test once the marker is in it.
 */
async function sendClosing(target: RunServer, closedBy: Account): Promise<Closing> {
  const marker = `auditbench-${randomBytes(6).toString('hex')}`;
  await target.barrier(`${marker}-barrier`);
  const id = await sendMarker(closedBy, `${marker}-close`);
  return {
    id,
    isMarker: (e) =>
      e.user === closedBy.user && (e.connectionId === id || e.queryText.includes(`${marker}-close`)),
    ours: (e) => !e.queryText.includes(marker),
  };
}

const notClosed = (closedBy: Account, waitMs: number): string =>
  `no record of ${closedBy.user}'s marker connection appeared within ${waitMs} ms: is that account audited?`;

/** The closing steps, then the whole log read until the marker is in it: whether it came. */
async function closeLog(
  target: RunServer,
  closedBy: Account,
  waitMs: number,
): Promise<{ closedBy: string | null; notClosedBecause: string | null }> {
  const { isMarker } = await sendClosing(target, closedBy);
  const log = await waitForEvents(target.server, target.profile, (events) => events.some(isMarker), waitMs);
  return log.events.some(isMarker)
    ? { closedBy: closedBy.user, notClosedBecause: null }
    : { closedBy: null, notClosedBecause: notClosed(closedBy, waitMs) };
}

/** A connection of its own as the closing account: its login, a marker statement, its logout. Its connection id. */
async function sendMarker(account: Account, marker: string): Promise<number> {
  const session = account.another();
  try {
    const id = await session.connectionId();
    await session.query(`SELECT '${marker}' AS auditbench_close`);
    return id;
  } finally {
    await session.close();
  }
}
