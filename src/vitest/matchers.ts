import { type LimitPolicy, limitFailure } from '../bench/pipeline.ts';
import type { Measurement } from '../results/schema.ts';
import { decideVerdict } from '../stats/verdict.ts';
import {
  type AuditLogBytes,
  type AuditRecord,
  type AuditRecords,
  checkPattern,
  formatPattern,
  formatRecord,
  kindOf,
  matchesPattern,
  quoteRecords,
  type RecordPattern,
} from './audit-records.ts';
import { besideUnreadable, quoteUnreadable } from './unreadable-lines.ts';

// The DBA's matchers, pure and synchronous on what a test already read (audit.since, audit.bytes, bench.run): each
// judge returns Vitest's { pass, message } and is unit-tested on every recorded log format. `isNot` is Vitest's `.not`.
// Input a judge cannot judge (bytes for records, an unset secret, a misspelt key, an unclosed span under `.not`) throws:
// a { pass: false } would become a pass under `.not`.

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** A measurement as `bench.run()` returns it: the figures, the run's policy and where it ran (for the message). */
export interface RunMeasurement {
  measurement: Measurement;
  policy: LimitPolicy;
  where: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
// audit.bytes() returns files beside its records, so the two are told apart by `files`, never by `records` alone.
const isBytes = (value: unknown): value is AuditLogBytes =>
  isObject(value) && Array.isArray(value.files) && Array.isArray(value.records);
const isRecords = (value: unknown): value is AuditRecords =>
  isObject(value) && Array.isArray(value.records) && !('files' in value);

/** The records of `audit.since()`, or a throw: a matcher that cannot judge must not return a pass `.not` inverts. */
function asRecords(received: unknown): AuditRecords {
  const takes = 'toHaveLogged reads the records of `await audit.since(mark, { closedBy })`';
  if (isBytes(received))
    throw new TypeError(
      `${takes}, got \`await audit.bytes()\` (every log file since the server started, not the records since a mark): read audit.since(mark, { closedBy }), or use toHoldText on the bytes`,
    );
  if (!isRecords(received)) throw new TypeError(`${takes}, got ${kindOf(received)}`);
  return received;
}

const closedByMarker = (value: { closedBy?: unknown }): value is { closedBy: string } =>
  typeof value.closedBy === 'string';

/** `toHaveLogged(pattern)` and `.not.toHaveLogged(pattern)` on `await audit.since(mark, …)`. */
export function judgeLogged(received: unknown, pattern: unknown, isNot: boolean): MatcherResult {
  const given = asRecords(received);
  const { records, format, notClosedBecause } = given;
  checkPattern(pattern, 'toHaveLogged');
  const found = records.filter((r) => matchesPattern(r, pattern));
  const wanted = formatPattern(pattern);
  const of = `${records.length} record(s) since the mark`;
  if (isNot && !closedByMarker(given)) {
    // A pass here could be the log lagging behind: refuse to judge.
    throw new Error(
      `cannot show that no record matches ${wanted}: the records were not closed (${notClosedBecause ?? 'no closedBy'}); read them with audit.since(mark, { closedBy: anAuditedAccount })\nFound ${of}:\n${quoteRecords(records)}`,
    );
  }
  const unreadable = besideUnreadable(given.rejected);
  if (found.length > 0) {
    return {
      pass: true,
      message: () =>
        `expected no record matching ${wanted}, found ${found.length} of ${of}:\n${quoteRecords(found)}${connectionNote(format, pattern, found)}${unreadable}`,
    };
  }
  if (isNot && unreadable !== '') {
    // A line the reader cannot trust may be the very record: refuse to judge.
    return {
      pass: true,
      message: () =>
        `cannot show that no record matches ${wanted}: none of ${of} does, but the span holds lines that are no record a reader can trust, and any of them may be one:\n${quoteUnreadable(given.rejected)}`,
    };
  }
  const { closedBy } = given;
  const closed = closedBy === null ? '' : ` (closed by ${closedBy}'s marker)`;
  return {
    pass: false,
    message: () =>
      `expected a record matching ${wanted}, none of ${of}${closed} does:\n${quoteRecords(records)}${unreadable}`,
  };
}

/**
 * Why an account's connection records are there when a `.not` names it: server_audit's auditing() asks do_log_user
 * (incl_users, excl_users) for the QUERY and TABLE classes only, never for a connection event.
 */
function connectionNote(format: string, pattern: RecordPattern, found: AuditRecord[]): string {
  if (format !== 'server_audit' || pattern.user === undefined) return '';
  if (!found.some((r) => r.class === 'CONNECT')) return '';
  return `\nserver_audit logs the connection events (CONNECT, FAILED_CONNECT, DISCONNECT, CHANGEUSER) of every account: server_audit_incl_users and server_audit_excl_users filter only its QUERY and TABLE records. To ask that ${pattern.user}'s statements are not logged, add class: 'QUERY' (or a statement) to the pattern`;
}

const CONTEXT_BYTES = 40;
/**
 * The shortest text toHoldText judges. Below it a text is in a log by chance (a time, a host, a keyword), so finding
 * it proves nothing; and 8 is the least length PCI DSS v4.0.1 8.3.6 allows a password (12, or 8 where the system
 * cannot take 12), so a real secret is never refused.
 */
export const MIN_SECRET_CHARS = 8;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The secret, or a throw naming what is wrong with it (an unset variable, an empty or a short text). */
function checkSecret(text: unknown): string {
  if (typeof text !== 'string')
    throw new TypeError(
      `toHoldText needs the secret as a string, got ${kindOf(text)}${text === undefined ? ': is the variable it is read from set?' : ''}`,
    );
  if (text.length === 0)
    throw new TypeError(
      'toHoldText got an empty text: every log holds it, so it proves nothing; is the variable the secret is read from set?',
    );
  if (text.length < MIN_SECRET_CHARS)
    throw new TypeError(
      `toHoldText refuses a text of ${text.length} character(s): under ${MIN_SECRET_CHARS}, a text is in a log by chance (a time, a host, a keyword), so finding it or not proves nothing; give the whole secret (PCI DSS 8.3.6 asks for at least 8 characters, 12 where the system allows)`,
    );
  return text;
}

/** The bytes of `audit.bytes()`, or a throw: the records of `since()` leave out the lines the parser rejected. */
function asBytes(received: unknown): AuditLogBytes {
  const takes = 'toHoldText reads `await audit.bytes({ closedBy })`';
  if (isRecords(received))
    throw new TypeError(
      `${takes}, got the records of audit.since(): their fields leave out the lines the parser rejected and everything before the mark, where a secret may be; read audit.bytes({ closedBy: anAuditedAccount })`,
    );
  if (!isBytes(received)) throw new TypeError(`${takes}, got ${kindOf(received)}`);
  return received;
}

/** Where the text is: each file's byte offset and the bytes around it, then each record that holds it. */
function placesOf(log: AuditLogBytes, text: string, shown: string): string[] {
  const needle = encoder.encode(text);
  const where: string[] = [];
  for (const file of log.files) {
    const at = Buffer.from(file.bytes).indexOf(needle);
    if (at === -1) continue;
    const from = Math.max(0, at - CONTEXT_BYTES);
    const around = decoder.decode(file.bytes.subarray(from, at + needle.length + CONTEXT_BYTES));
    where.push(`  ${file.name} at byte ${at}: ${JSON.stringify(around.replaceAll(text, shown))}`);
  }
  for (const record of log.records) {
    const fields = [record.queryText, record.user, record.object, record.database];
    if (fields.some((field) => field.includes(text)))
      where.push(`  a record: ${formatRecord(record).replaceAll(text, shown)}`);
  }
  return where;
}

/**
 * `toHoldText(secret)` on `await audit.bytes(…)`: every file's raw bytes, then every parsed record's fields. A `.not`
 * needs bytes closed by an audited account's marker and at least one file: otherwise it throws rather than pass.
 */
export function judgeHoldsText(received: unknown, text: unknown, isNot = false): MatcherResult {
  const log = asBytes(received);
  const secret = checkSecret(text);
  const shown = masked(secret);
  if (isNot && !closedByMarker(log))
    throw new Error(
      `cannot show that no log byte holds ${shown}: the bytes were not closed (${log.notClosedBecause ?? 'no closedBy'}), so a record still on its way to the log is not in them; read them with audit.bytes({ closedBy: anAuditedAccount })`,
    );
  if (isNot && log.files.length === 0)
    throw new Error(`cannot show that no log byte holds ${shown}: audit.bytes() read no log file`);
  const where = placesOf(log, secret, shown);
  const files = `${log.files.length} log file(s) (${log.files.map((f) => f.name).join(', ') || 'none'})`;
  return where.length > 0
    ? {
        pass: true,
        message: () => `expected ${shown} in no log byte and no record, found it in:\n${where.join('\n')}`,
      }
    : {
        pass: false,
        message: () => `expected ${shown} in the log, but none of ${files} and no record holds it`,
      };
}

/** The secret as a message may show it: its first two characters and its length. */
export const masked = (text: string): string => `"${text.slice(0, 2)}…" (${text.length} characters)`;

function asRunMeasurement(received: unknown): RunMeasurement | null {
  const value = received as Partial<RunMeasurement> & Partial<Measurement>;
  if (value?.measurement && value.policy) return value as RunMeasurement;
  // A bare measurement (results.json's) is judged with the bench's defaults: inconclusive fails, interference warns.
  if (typeof value?.overheadPct === 'number')
    return {
      measurement: value as Measurement,
      policy: { inconclusive: 'fail', interference: 'warn' },
      where: 'the measurement',
    };
  return null;
}

/**
 * `toCostAtMostPct(limitPct)` on `(await bench.run()).measurement`: the interval judged against `limitPct` by the
 * bench's own rules (decideVerdict, then limitFailure: interference, an idle plugin, the p99 limit, the run's
 * `inconclusive` policy).
 */
export function judgeCost(received: unknown, limitPct: number): MatcherResult {
  const run = asRunMeasurement(received);
  if (!run)
    throw new TypeError(`toCostAtMostPct takes \`(await bench.run()).measurement\`, got ${kindOf(received)}`);
  if (typeof limitPct !== 'number' || !Number.isFinite(limitPct))
    throw new TypeError(`toCostAtMostPct takes the limit as a number of percent, got ${kindOf(limitPct)}`);
  const { measurement, policy, where } = run;
  const decided =
    measurement.verdict === 'idle'
      ? { verdict: measurement.verdict, reason: measurement.reason }
      : decideVerdict({
          estimatePct: measurement.overheadPct,
          ci95: measurement.overheadCi95,
          limitPct,
          ...(measurement.noiseFloorPct !== null && { noiseFloorPct: measurement.noiseFloorPct }),
        });
  const judged: Measurement = { ...measurement, limitPct, verdict: decided.verdict, reason: decided.reason };
  const failure = limitFailure(judged, policy, where);
  return failure === null
    ? { pass: true, message: () => `expected ${where} to cost more than ${limitPct}%: ${decided.reason}` }
    : { pass: false, message: () => failure };
}

export interface AuditbenchMatchers<R = unknown> {
  /** A record since the mark matches the pattern; `.not` also needs the records closed by an audited account. */
  toHaveLogged(pattern: RecordPattern): R;
  /** Some log byte (rotated files included) or parsed record holds the text; use `.not` for a secret. */
  toHoldText(text: string): R;
  /** The measurement's interval is within `limitPct` by the bench's verdict rules. */
  toCostAtMostPct(limitPct: number): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with Vitest's, whose default is any
  interface Matchers<T = any> extends AuditbenchMatchers<T> {}
}

/** What `expect.extend` takes: `this.isNot` tells `.not` (a "not logged" needs the closing marker). */
export const auditbenchMatchers = {
  toHaveLogged(this: { isNot?: boolean }, received: unknown, pattern: RecordPattern): MatcherResult {
    return judgeLogged(received, pattern, this.isNot === true);
  },
  toHoldText(this: { isNot?: boolean }, received: unknown, text: string): MatcherResult {
    return judgeHoldsText(received, text, this.isNot === true);
  },
  toCostAtMostPct(received: unknown, limitPct: number): MatcherResult {
    return judgeCost(received, limitPct);
  },
};
