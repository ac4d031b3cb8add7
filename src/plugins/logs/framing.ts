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

/** How to cut a log whose records start with a recognisable line and may continue over the lines after it. */
export interface ContinuedRecordRules {
  /** A line that starts a record. */
  starts: (line: string) => boolean;
  /** A line that is no record and ends the one before it (a file header); none by default. */
  separates?: (line: string) => boolean;
  /** The reason given for a line before any record start. */
  orphanReason: string;
}

/**
 * Cuts a log into multi-line records: a line that starts no record continues the previous record's text (a
 * statement with newlines). The server writes a record and its newline in one go, so an unfinished last line
 * leaves its record unfinished and the whole record is rejected as such.
 */
export function frameContinuedRecords(text: string, rules: ContinuedRecordRules): Framed {
  const framed: Framed = { records: [], rejected: [] };
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  let current: RawRecord | null = null;
  for (const [i, line] of lines.entries()) {
    if (rules.separates?.(line)) current = null;
    else if (rules.starts(line)) {
      current = { line: i + 1, text: line };
      framed.records.push(current);
    } else if (current) current.text += `\n${line}`;
    else framed.rejected.push({ line: i + 1, text: line, reason: rules.orphanReason });
  }
  if (last === '') return framed;
  const unfinished = current !== null && !rules.starts(last) ? framed.records.pop() : undefined;
  framed.rejected.push(
    unfinished
      ? { line: unfinished.line, text: `${unfinished.text}\n${last}`, reason: INCOMPLETE_LINE }
      : { line: lines.length + 1, text: last, reason: INCOMPLETE_LINE },
  );
  return framed;
}
