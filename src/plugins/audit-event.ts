/** One audit record, normalised across plugins' log formats. */
export interface AuditEvent {
  /** Event time as the log wrote it, converted to ISO 8601 when the format allows (local time has no zone). */
  time: string;
  user: string;
  host: string;
  connectionId: number | null;
  queryId: number | null;
  /** Upper-case operation: CONNECT, DISCONNECT, FAILED_CONNECT, QUERY, READ, WRITE, CREATE, … or the plugin's command name. */
  operation: string;
  database: string;
  /** Table or other object the event names, '' when none. */
  object: string;
  /** Statement text as logged (escapes undone), '' when the record has none. */
  queryText: string;
  /** Server error number; 0 for success; null when the format records none. */
  errorCode: number | null;
  /** The plugin's own command name where `operation` generalises it (McAfee's `cmd`: select, insert, Connect). */
  command?: string;
}

/** A parser for one log format: one line (or record) in, one event out. */
export interface LogParseResult {
  events: AuditEvent[];
  /** Lines that did not parse, with 1-based line numbers, so a reader can report them rather than drop them silently. */
  rejected: { line: number; text: string; reason: string }[];
}

export type LogParser = (text: string) => LogParseResult;
