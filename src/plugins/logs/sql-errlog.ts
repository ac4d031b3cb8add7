/**
 * MariaDB SQL_ERROR_LOG plugin (sql_errlog.so), file `sql_errors.log` in the datadir. Source: log_sql_errors() in
 * plugin/sql_errlog/sql_errlog.c. One record per failing (or, with sql_error_log_warnings=ON, warning) statement:
 *
 *   `2026-11-30  0:43:42 root[root] @ localhost [] ERROR 1146: Table 'shop.t' doesn't exist : SELECT * FROM t`
 *   `2026-11-30  0:44:18 4 root[root] @ localhost [] `shop` ERROR 1146: ... : SELECT * FROM t ` (with_db_and_thread_info)
 *
 * Mapping: operation is the level as logged, 'ERROR' or 'WARNING' (a warning's statement succeeded, so calling it a
 * QUERY with a non-zero code would read as a failure); errorCode is the error or warning number. Failed logins are
 * ERROR 1045 records whose query is `(null)`: queryText ''. The message is not kept (AuditEvent has no field for it).
 *
 * The query is written raw, so a multi-line statement spans several lines: a line that does not start a record
 * continues the previous one. The message and the query are both joined by " : ", which either may contain; the split
 * is after the first " at line N : " (syntax errors quote the statement up to there), else at the first " : ". A
 * message with its own " : " (e.g. a SIGNAL text) therefore leaves part of the message in queryText.
 */
import type { LogParser } from '../audit-event.ts';
import { collect, event, type Framed, frameContinuedRecords, type RecordOutcome, reject } from './framing.ts';
import { parseUserHost } from './user-host.ts';

const RECORD_START =
  /^(\d{4}-\d\d-\d\d) {1,2}(\d{1,2}):(\d\d:\d\d) (?:(\d+) )?([^[\]\n]*\[[^\]\n]*\] @ \S* \[[^\]\n]*\]) (?:(NULL|`(?:[^`\n]|``)*`) )?(ERROR|WARNING) (\d+): /;
// Framing only needs the timestamp: a damaged record then fails alone instead of merging into the query above it.
const TIMESTAMP_START = /^\d{4}-\d\d-\d\d {1,2}\d{1,2}:\d\d:\d\d /;
const SYNTAX_ERROR_END = / at line \d+ : /;

export const parseSqlErrlog: LogParser = (text) => collect(frameRecords(text), parseRecord);

/** Cuts the log into records: a line that does not start with a timestamp belongs to the previous record's query. */
function frameRecords(text: string): Framed {
  return frameContinuedRecords(text, {
    starts: (line) => TIMESTAMP_START.test(line),
    orphanReason: 'no record to continue and no timestamp',
  });
}

function parseRecord(text: string): RecordOutcome {
  const head = RECORD_START.exec(text);
  if (!head) return reject('not a sql_errlog record');
  const [matched, date = '', hour = '', minSec = '', thread, userHost = '', db, level = '', code = ''] = head;
  const who = parseUserHost(userHost);
  if (!who) return reject(`unreadable account ${JSON.stringify(userHost)}`);
  const query = splitQuery(text.slice(matched.length), thread !== undefined);
  if (query === null) return reject('no " : " between the error message and the query');
  return event({
    time: `${date}T${hour.padStart(2, '0')}:${minSec}`,
    user: who.user,
    host: who.host,
    connectionId: thread === undefined ? null : Number(thread),
    queryId: null,
    operation: level,
    database: db === undefined || db === 'NULL' ? '' : db.slice(1, -1).replaceAll('``', '`'),
    object: '',
    queryText: query === '(null)' ? '' : query,
    errorCode: Number(code),
  });
}

/** The query after the message; the db-and-thread variant ends every record with an extra space before the newline. */
function splitQuery(rest: string, withDbAndThread: boolean): string | null {
  const syntax = SYNTAX_ERROR_END.exec(rest);
  const at = syntax ? syntax.index + syntax[0].length - 3 : rest.indexOf(' : ');
  if (at < 0) return null;
  const query = rest.slice(at + 3);
  return withDbAndThread && query.endsWith(' ') ? query.slice(0, -1) : query;
}
