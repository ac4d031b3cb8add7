import type { AuditEvent, LogParseResult } from '../audit-event.ts';

export type Rejection = LogParseResult['rejected'][number];

/** One record cut from a log before it is parsed: its first line (1-based) and its raw text. */
export interface RawRecord {
  line: number;
  text: string;
}

/** The records of a log, plus the pieces that could not even be cut into records. */
export interface Framed {
  records: RawRecord[];
  rejected: Rejection[];
}

/** What one record gave: an event, a record the format defines as no event (header, footer), or why it is malformed. */
export type RecordOutcome =
  | { kind: 'event'; event: AuditEvent }
  | { kind: 'skip' }
  | { kind: 'reject'; reason: string };

/**
 * Reason for a last line without its newline. Every plugin ends a record with a newline in the same write, so a
 * missing newline means the writer is still busy (or died mid-write): a reader tailing a live log may retry later.
 */
export const INCOMPLETE_LINE = 'incomplete last line';
/** Reason for a multi-line record (XML element, JSON object, quoted CSV field) still open at the end of the text. */
export const INCOMPLETE_RECORD = 'incomplete last record';

export const event = (e: AuditEvent): RecordOutcome => ({ kind: 'event', event: e });
export const skip: RecordOutcome = { kind: 'skip' };
export const reject = (reason: string): RecordOutcome => ({ kind: 'reject', reason });

/** Frames a one-record-per-line log. Empty lines are rejected: no plugin writes them, so one means damage. */
export function frameLines(text: string): Framed {
  const framed: Framed = { records: [], rejected: [] };
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  lines.forEach((line, i) => {
    if (line === '') framed.rejected.push({ line: i + 1, text: line, reason: 'empty line' });
    else framed.records.push({ line: i + 1, text: line });
  });
  if (last !== '') framed.rejected.push({ line: lines.length + 1, text: last, reason: INCOMPLETE_LINE });
  return framed;
}

/** Parses every framed record. Never throws: a parser exception becomes a rejection of that record. */
export function collect(framed: Framed, parse: (text: string) => RecordOutcome): LogParseResult {
  const events: AuditEvent[] = [];
  const rejected = [...framed.rejected];
  for (const record of framed.records) {
    const outcome = safely(parse, record.text);
    if (outcome.kind === 'event') events.push(outcome.event);
    else if (outcome.kind === 'reject') rejected.push({ ...record, reason: outcome.reason });
  }
  rejected.sort((a, b) => a.line - b.line);
  return { events, rejected };
}

function safely(parse: (text: string) => RecordOutcome, text: string): RecordOutcome {
  try {
    return parse(text);
  } catch (error) {
    return reject(`parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A decimal count or id, or null when absent; undefined when present but not a number (the record is malformed). */
export function optionalInt(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** `Init DB` → `INIT_DB`: the normalised spelling of a plugin's own command name. */
export const upperSnake = (name: string): string => name.trim().toUpperCase().replace(/\s+/g, '_');
