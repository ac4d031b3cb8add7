import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../../machine/clock.ts';
import type { Json, LifecycleCheck } from '../../results/lifecycle-check.ts';
import type { AccountSession } from '../../servers/account-session.ts';
import { SqlError } from '../../servers/sql-session.ts';
import type { StartedServer } from '../../servers/started-server.ts';
import { sysbenchDatabase } from '../../workload/sysbench-args.ts';
import type { AuditEvent } from '../audit-event.ts';
import { readLogEvents, waitForEvents } from '../log-reader.ts';
import type { PluginExpectations, PluginProfile } from '../profile.ts';
import { pluginStatus, readVariables } from '../server-state.ts';

/** What the checks of one lifecycle share: the server, the profile, a marker unique to this run, the defaults. */
export interface LifecycleContext {
  server: StartedServer;
  profile: PluginProfile;
  /** The profile's expectations for this server's flavor. */
  expected: PluginExpectations;
  /** Put in every statement a check looks for, so lines from other runs or checks never match. */
  marker: string;
  /** The plugin's variables right after install, filled by the install check. */
  defaults: Record<string, string>;
  /**
   * The checks' own account: every statement a check then looks for in the log is sent as it. Installing, SET
   * GLOBAL, restarts and reading variables or status go through `server` (root): they need admin privileges.
   */
  checks: AccountSession;
  /** The traffic's application account: the rotation check fills the log as it when the checks' is not audited. */
  application: AccountSession;
  /** Whether the run's user filter audits each account (both true without a filter). */
  audited: { application: boolean; checks: boolean };
  /** The one line that fails the run when its user filter audits none of the measured traffic; null otherwise. */
  refusal: string | null;
  /** The clock the checks' waits and spans read: the real one unless a test hands in its own. */
  clock?: Clock;
}

export interface LifecycleStep {
  id: string;
  title: string;
  run(context: LifecycleContext): Promise<LifecycleCheck>;
}

export function check(name: string, expected: Json, observed: Json, details?: Json): LifecycleCheck {
  return {
    check: name,
    expected,
    observed,
    ok: isDeepStrictEqual(expected, observed),
    ...(details === undefined ? {} : { details }),
  };
}

/** Runs a statement that is meant to fail and returns the server's errno. */
export async function failingQuery(session: Pick<AccountSession, 'query'>, sql: string): Promise<number> {
  try {
    await session.query(sql);
  } catch (error) {
    if (error instanceof SqlError) return error.errno;
    throw error;
  }
  throw new Error(`Expected the server to refuse '${sql}', but it succeeded`);
}

/** What a built-in answers where a plugin has its PLUGINS status. */
export const BUILT_IN = 'BUILT-IN';

/**
 * The plugin's status in information_schema.PLUGINS (ACTIVE, DELETED, …), or for a built-in (no soname) BUILT-IN when
 * its logging variable exists; null when neither is there.
 */
export async function presence(server: StartedServer, profile: PluginProfile): Promise<string | null> {
  const { soname, name, loggingVariable } = profile;
  if (soname !== null) return pluginStatus(server, name);
  if (loggingVariable === null) return null;
  const variables = await readVariables(server, loggingVariable.replaceAll('_', '\\_'));
  return loggingVariable in variables ? BUILT_IN : null;
}

/** A check that cannot apply to this profile (nothing written to read); recorded, so the report says so. */
export const notApplicable = (name: string, why: string, details?: Record<string, Json>): LifecycleCheck =>
  check(name, 'not applicable', 'not applicable', { why, ...details });

/** Length of `text` as written by a plugin that escapes quotes and backslashes with a backslash. */
export const writtenLength = (text: string): number => text.length + (text.match(/['\\]/g)?.length ?? 0);

/**
 * Why a check cannot find `needle` of `statement` in the log under this configuration: the log cannot be read
 * (e.g. it goes to syslog), only some records reach it (a sampling rate), or records keep fewer characters than it
 * takes to reach the needle's end (the whole statement when no needle is given). Null when it can; the check then
 * records 'not applicable' with the reason.
 */
export function unreadableReason(
  ctx: LifecycleContext,
  statement: string,
  needle = statement,
): string | null {
  if (ctx.expected.logUnreadable !== undefined) return ctx.expected.logUnreadable;
  if (ctx.expected.recordsIncomplete !== undefined) return ctx.expected.recordsIncomplete;
  const limit = ctx.expected.statementTextLimit;
  if (limit === undefined) return null;
  const at = statement.indexOf(needle);
  const needed = writtenLength(statement.slice(0, at < 0 ? statement.length : at + needle.length));
  return needed > limit
    ? `records keep ${limit} characters of a statement, and the check needs ${needed} to find its own: ${JSON.stringify(statement)}`
    : null;
}

/**
 * Whether a record keeps the start of `statement` cut as a statement limit cuts it: at least one character, at most
 * `limit`, and nothing that is not the statement's own.
 */
export const keepsStartOf = (kept: string, statement: string, limit: number): boolean =>
  kept.length > 0 && kept.length <= limit && statement.startsWith(kept);

/**
 * Each statement's record among a connection's records, in the order they were sent: the next record that keeps the
 * statement's start (at one character, 'SELEC …' and 'SELECT …' both keep 'S'); undefined where none is left.
 */
export function recordsInOrder(
  records: readonly AuditEvent[],
  statements: readonly string[],
  limit: number,
): (AuditEvent | undefined)[] {
  let next = 0;
  return statements.map((sql) => {
    const at = records.findIndex((e, i) => i >= next && keepsStartOf(e.queryText, sql, limit));
    if (at < 0) return undefined;
    next = at + 1;
    return records[at];
  });
}

/**
 * Why the check cannot find its marker is only that records keep too few characters (server_audit's
 * query_log_limit): the check can then find its records by the connection that sent them.
 */
export function cutOnly(ctx: LifecycleContext): number | null {
  const { logUnreadable, recordsIncomplete, statementTextLimit } = ctx.expected;
  if (logUnreadable !== undefined || recordsIncomplete !== undefined) return null;
  return statementTextLimit ?? null;
}

/**
 * The statement records `send` left on `session`'s connection, for a configuration whose records keep too little of
 * a statement to hold the check's marker: the records written after `send` began whose connection id is the
 * session's (read after sending, so a reconnect on the way is followed) and which hold statement text. The wait
 * ends once `expected` of them are there, or after the usual 2 s. Null when the session cannot tell its connection
 * or the log's records name none.
 */
export async function recordsSentBy(
  ctx: LifecycleContext,
  session: AccountSession,
  send: () => Promise<void>,
  expected: number,
): Promise<{ connectionId: number; records: AuditEvent[] } | null> {
  const before = (await readLogEvents(ctx.server, ctx.profile)).events.length;
  await send();
  const connectionId = await session.connectionId();
  if (connectionId === null) return null;
  const sent = (events: AuditEvent[]) =>
    events.slice(before).filter((e) => e.connectionId === connectionId && e.queryText !== '');
  const { events } = await waitForEvents(ctx.server, ctx.profile, (evs) => sent(evs).length >= expected);
  if (events.length > before && events.slice(before).every((e) => e.connectionId === null)) return null;
  return { connectionId, records: sent(events) };
}

/** A table no check creates, in the one database the checks' account may read: the server answers 1146, not 1142. */
export const missingTable = (ctx: LifecycleContext, suffix: string): string =>
  `${sysbenchDatabase}.${ctx.marker}_${suffix}`;

/**
 * Runs a statement the profile's log records and returns the text to look for: a plain SELECT, or a SELECT from a
 * missing table for a plugin that logs only failures. `padding` makes the record larger (rotation); `as` is the
 * account that sends it (the checks' by default).
 */
export async function loggedStatement(
  ctx: LifecycleContext,
  tag: string,
  padding = '',
  as: AccountSession = ctx.checks,
): Promise<string> {
  const needle = `${ctx.marker}-${tag}`;
  const select = `SELECT '${needle}${padding}' AS auditbench_marker`;
  if (ctx.expected.logsSuccessfulQueries) await as.query(select);
  else await failingQuery(as, `${select} FROM ${missingTable(ctx, 'missing')}`);
  return needle;
}

/** What a check's record says of the traffic it sent: which account, which statement(s). */
export const sentAs = (
  session: AccountSession,
  ...statements: string[]
): { account: string; statements: string[] } => ({
  account: session.user,
  statements,
});

export const toJson = (value: unknown): Json => JSON.parse(JSON.stringify(value ?? null)) as Json;
