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

/** Every log file's bytes (rotated copies included), and the records parsed from them. */
export interface AuditLogBytes {
  files: { name: string; bytes: Uint8Array }[];
  records: AuditRecord[];
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

export function matchesPattern(record: AuditRecord, pattern: RecordPattern): boolean {
  for (const field of FIELDS) {
    if (pattern[field] !== undefined && record[field] !== pattern[field]) return false;
  }
  const { statement } = pattern;
  if (statement === undefined) return true;
  return typeof statement === 'string'
    ? record.queryText.includes(statement)
    : statement.test(record.queryText);
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
