/**
 * The server's general query log as a file (log_output=FILE), the built-in comparator for audit plugins. One record
 * per command: `<time>\t<id> <Command>\t<argument>`. Sources: MYSQL_QUERY_LOG::write() in MariaDB's sql/log.cc,
 * File_query_log::write_general() in MySQL's; recorded from MariaDB 10.11.19 (fixtures/logs/SOURCES.md).
 *
 *   MariaDB, MySQL ≤ 5.6: `261130  1:07:44\t    24 Query\tSELECT 1`: `YYMMDD H:MM:SS`, local time, written only
 *   when the second changes; the other lines start with `\t\t` and take the time of the line above.
 *   MySQL 5.7+: `2026-11-30T01:07:44.123456Z\t   24 Query\tSELECT 1`: every line, UTC or with an offset.
 *
 * Every open of the file (start, general_log=ON, a new general_log_file) writes a three-line header, skipped here.
 * The argument is written raw, so a multi-line statement continues on lines that start no record. A continuation
 * line that happens to look like a record (a string literal holding `\t\t    99 Query\t…`) cannot be told apart and
 * becomes a record of its own.
 *
 * Mapping: operation is QUERY, CONNECT, FAILED_CONNECT (a Connect whose argument is "Access denied …"), DISCONNECT
 * (Quit), or the command in upper snake case (INIT_DB, PREPARE, EXECUTE, CLOSE_STMT, CHANGE_USER). queryText is the
 * argument of Query, Prepare and Execute. The log has no user, database or error code on a statement: user, host and
 * database come from the connection's Connect, Change user and Init DB records earlier in the text, and errorCode
 * is always null.
 */
import type { AuditEvent, LogParser } from '../audit-event.ts';
import {
  collect,
  event,
  type Framed,
  frameContinuedRecords,
  type RecordOutcome,
  reject,
  upperSnake,
} from './framing.ts';

const RECORD_START =
  /^(?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))\t|(\d\d)(\d\d)(\d\d) ([ \d]\d):(\d\d:\d\d)\t|\t\t) *(\d+) ([A-Z][A-Za-z_]*(?: [A-Za-z_]+)*)\t/;
const HEADER = [
  /^\S.*, Version: .*\. started with:$/,
  /^Tcp port: \d+ {2}(?:Unix socket|Named Pipe): .*$/,
  /^Time\s+Id\s+Command\s+Argument$/,
];
const CONNECTED = /^(.*)@(\S*)(?: as \S*)? on (\S*) using \S.*$/;
const ACCESS_DENIED = /^Access denied for user '(.*)'@'([^']*)'/;
const STATEMENT_COMMANDS = new Set(['Query', 'Prepare', 'Execute']);

export const parseGeneralLog: LogParser = (text) => {
  const { events, rejected } = collect(frameRecords(text), parseRecord);
  return { events: fillFromContext(events), rejected };
};

/** Cuts the log into records; headers are dropped and end the record before them. */
function frameRecords(text: string): Framed {
  return frameContinuedRecords(text, {
    starts: (line) => RECORD_START.test(line),
    separates: (line) => HEADER.some((header) => header.test(line)),
    orphanReason: 'no record to continue and no record start',
  });
}

function parseRecord(text: string): RecordOutcome {
  const head = RECORD_START.exec(text);
  if (!head) return reject('not a general log record');
  const [matched, iso, yy, mm, dd, hour = '', minSec, id = '', command = ''] = head;
  const argument = text.slice(matched.length);
  const time = iso ?? (yy ? `20${yy}-${mm}-${dd}T${hour.trim().padStart(2, '0')}:${minSec}` : '');
  return generalLogEvent({ time, connectionId: Number(id), command, argument });
}

/** One command of the general log, whatever its output (this file, or the table's CSV file). */
export interface GeneralLogRecord {
  time: string;
  connectionId: number;
  /** As written: `Query`, `Connect`, `Init DB`, `Change user`, `Quit`… */
  command: string;
  argument: string;
  /** The account, where the output names it on every record (the table's user_host); '' where it does not. */
  user?: string;
  host?: string;
}

/** The event of one record; what it leaves empty comes from the connection's earlier records (fillFromContext). */
export function generalLogEvent(record: GeneralLogRecord): RecordOutcome {
  const { time, connectionId, command, argument } = record;
  const base: AuditEvent = {
    time,
    user: record.user ?? '',
    host: record.host ?? '',
    connectionId,
    queryId: null,
    operation: upperSnake(command),
    database: '',
    object: '',
    queryText: STATEMENT_COMMANDS.has(command) ? argument : '',
    errorCode: null,
  };
  if (command === 'Quit') return event({ ...base, operation: 'DISCONNECT' });
  if (command === 'Init DB') return event({ ...base, database: argument });
  if (command === 'Connect' || command === 'Change user') return event(withAccount(base, argument));
  return event(base);
}

/** A Connect or Change user record: `user@host on db using transport`, or the refusal of a failed login. */
function withAccount(base: AuditEvent, argument: string): AuditEvent {
  const denied = ACCESS_DENIED.exec(argument);
  if (denied) return { ...base, operation: 'FAILED_CONNECT', user: denied[1] ?? '', host: denied[2] ?? '' };
  const connected = CONNECTED.exec(argument);
  if (!connected) return base;
  const [, user = '', host = '', database = ''] = connected;
  return { ...base, user, host, database };
}

interface Session {
  user: string;
  host: string;
  database: string;
}

/** Fills what the format leaves to earlier lines: the time of the line above, the account of the connection. */
export function fillFromContext(events: AuditEvent[]): AuditEvent[] {
  const sessions = new Map<number | null, Session>();
  let time = '';
  return events.map((e) => {
    time = e.time || time;
    const known = sessions.get(e.connectionId);
    if (e.operation === 'CONNECT' || e.operation === 'CHANGE_USER') {
      sessions.set(e.connectionId, { user: e.user, host: e.host, database: e.database });
      return { ...e, time };
    }
    if (e.operation === 'INIT_DB' && known) known.database = e.database;
    if (e.operation === 'DISCONNECT' || e.operation === 'FAILED_CONNECT') sessions.delete(e.connectionId);
    return {
      ...e,
      time,
      user: e.user || known?.user || '',
      host: e.host || known?.host || '',
      database: e.database || known?.database || '',
    };
  });
}
