import { nearest } from '../cli/near-miss.ts';
import type { AuditEvent } from '../plugins/audit-event.ts';
import type { UnreadableLine } from '../plugins/log-mark.ts';
import { eventClass } from '../plugins/logs/event-class.ts';
import type { LogFormat } from '../plugins/logs/index.ts';

/** One audit record as a DBA's test sees it: the parsed event and its class in the log's own terms (event-class.ts). */
export interface AuditRecord extends AuditEvent {
  class: string;
}

/** The records a test reads since a mark, and whether an audited account's closing marker came after them. */
export interface AuditRecords {
  format: LogFormat;
  records: AuditRecord[];
  /** The account whose closing marker was found after these records; null when they were not closed. */
  closedBy: string | null;
  /** Why they are not closed (no marker asked for, or it did not appear in time); null when closed. */
  notClosedBecause: string | null;
  /** Lines of the span a reader cannot trust: unparsed, or naming an account their connection does not vouch for. */
  rejected: UnreadableLine[];
}

/** Every log file's bytes (rotated copies included), the records parsed from them, and whether a marker closed them. */
export interface AuditLogBytes {
  files: { name: string; bytes: Uint8Array }[];
  records: AuditRecord[];
  /** The account whose closing marker was in the log before the files were read; null when not closed. */
  closedBy: string | null;
  /** Why they are not closed; null when closed. */
  notClosedBecause: string | null;
}

/** What a record must hold: each field given is compared; the statement matches by substring or regular expression. */
export interface RecordPattern {
  user?: string;
  host?: string;
  operation?: string;
  class?: string;
  database?: string;
  object?: string;
  statement?: string | RegExp;
  errorCode?: number | null;
}

export const withClass = (format: LogFormat, events: AuditEvent[]): AuditRecord[] =>
  events.map((event) => ({ ...event, class: eventClass(format, event) }));

const FIELDS = ['user', 'host', 'operation', 'class', 'database', 'object', 'errorCode'] as const;

const KEYS = [...FIELDS, 'statement'] as const;
// A record's fields that a pattern does not compare, so that a key meant for one is named as such.
const RECORD_ONLY = ['time', 'connectionId', 'queryId', 'queryText', 'command'] as const;
const KEYS_LINE = `a pattern compares ${FIELDS.join(', ')} (each by equality) and statement (the statement's text)`;

const shown = (value: unknown): string =>
  value instanceof RegExp || value === undefined
    ? String(value)
    : typeof value === 'string'
      ? `'${value}'`
      : (JSON.stringify(value) ?? String(value));
/** What a value is, in a few words, for the line that refuses it: 'undefined', 'an array', 'a string'. */
export const kindOf = (value: unknown): string =>
  value === null || value === undefined
    ? String(value)
    : Array.isArray(value)
      ? 'an array'
      : value instanceof RegExp
        ? 'a RegExp'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;

/** Why a key is not a pattern's, with the key meant when it is near one of the record's fields. */
function unknownKey(key: string): string {
  const meant = nearest(key, [...KEYS, ...RECORD_ONLY]);
  const hint =
    meant === 'queryText'
      ? " did you mean 'statement'? (it matches the record's queryText)"
      : meant !== null && (KEYS as readonly string[]).includes(meant)
        ? ` did you mean '${meant}'?`
        : meant !== null
          ? ` '${meant}' is a record field a pattern does not compare.`
          : '';
  return `'${key}' is not a key of a pattern:${hint} ${capitalised(KEYS_LINE)}`;
}

const capitalised = (text: string): string => `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;

/** Why a value does not fit its key, or null when it does. */
function wrongValue(key: (typeof KEYS)[number], value: unknown): string | null {
  if (value === undefined)
    return `the pattern's ${key} is undefined: give a value, or leave the key out (is the variable it is read from set?)`;
  const at = `the pattern's ${key} is ${shown(value)} (${kindOf(value)})`;
  if (key === 'statement') {
    if (value instanceof RegExp) return null;
    if (typeof value !== 'string') return `${at}; statement takes a string or a RegExp`;
    return value === '' ? `${at}: an empty statement matches every record; give some of its text` : null;
  }
  if (key === 'errorCode') {
    if (value === null || Number.isInteger(value)) return null;
    const asNumber = typeof value === 'string' && /^\d+$/.test(value) ? `: write errorCode: ${value}` : '';
    return `${at}; errorCode takes a whole number or null${asNumber}`;
  }
  return typeof value === 'string' ? null : `${at}; ${key} takes a string`;
}

/**
 * A pattern checked as the test runs, where no type checker reads a DBA's file: an object of known keys, each of
 * its type. Throws the first fault in one line, naming the key, the value and what to write.
 */
export function checkPattern(pattern: unknown, matcher: string): asserts pattern is RecordPattern {
  const example = "{ user: 'admin', statement: /^CREATE/ }";
  if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern) || pattern instanceof RegExp)
    throw new TypeError(`${matcher} takes a pattern such as ${example}, got ${kindOf(pattern)}`);
  const keys = Object.keys(pattern);
  if (keys.length === 0)
    throw new TypeError(`${matcher} got an empty pattern, which matches every record: ${KEYS_LINE}`);
  for (const key of keys) {
    if (!(KEYS as readonly string[]).includes(key)) throw new TypeError(`${matcher}: ${unknownKey(key)}`);
    const fault = wrongValue(key as (typeof KEYS)[number], (pattern as Record<string, unknown>)[key]);
    if (fault !== null) throw new TypeError(`${matcher}: ${fault}`);
  }
}

export function matchesPattern(record: AuditRecord, pattern: RecordPattern): boolean {
  for (const field of FIELDS) {
    if (pattern[field] !== undefined && record[field] !== pattern[field]) return false;
  }
  const { statement } = pattern;
  if (statement === undefined) return true;
  if (typeof statement === 'string') return record.queryText.includes(statement);
  // A /g or /y expression carries lastIndex from one test to the next: each record is tested from its start.
  statement.lastIndex = 0;
  return statement.test(record.queryText);
}

const STATEMENT_CHARS = 100;

/** A record on one line, as a failure message quotes it. */
export function formatRecord(record: AuditRecord): string {
  const text = record.queryText.replace(/\s+/g, ' ');
  const statement = text.length > STATEMENT_CHARS ? `${text.slice(0, STATEMENT_CHARS)}…` : text;
  const where = [record.database && `db ${record.database}`, record.object && `object ${record.object}`]
    .filter(Boolean)
    .join(' ');
  return [
    `${record.class}/${record.operation}`,
    `${record.user}@${record.host}`,
    `conn ${record.connectionId ?? '-'}`,
    where,
    record.errorCode ? `error ${record.errorCode}` : '',
    statement && JSON.stringify(statement),
  ]
    .filter(Boolean)
    .join(' ');
}

export function formatPattern(pattern: RecordPattern): string {
  const parts = Object.entries(pattern)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${value instanceof RegExp ? String(value) : JSON.stringify(value)}`);
  return `{ ${parts.join(', ')} }`;
}

const QUOTED = 10;

/** Up to ten records, one a line, and how many more: what a failure message shows of what was found. */
export function quoteRecords(records: AuditRecord[]): string {
  if (records.length === 0) return '  (no record)';
  const lines = records.slice(0, QUOTED).map((r) => `  ${formatRecord(r)}`);
  if (records.length > QUOTED) lines.push(`  … and ${records.length - QUOTED} more`);
  return lines.join('\n');
}
