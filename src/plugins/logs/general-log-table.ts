/**
 * The general log kept in its table (log_output=TABLE), read from the table's own file: mysql.general_log is a CSV
 * engine table, whose rows are the lines of `<datadir>/mysql/general_log.CSV`. Reading the file needs no account and
 * logs nothing, where a SELECT on the table would be a command of its own in the log it reads. Recorded from MariaDB
 * 10.11.19 (fixtures/logs/SOURCES.md).
 *
 *   `"2026-12-07 17:11:47.181998","u[u] @  [127.0.0.1]",7,1,"Query","SELECT 1"`
 *
 * Columns: event_time, user_host, thread_id, server_id, command_type, argument (the table's definition in MariaDB's
 * scripts/mysql_system_tables.sql). Strings are quoted and numbers bare; inside quotes the CSV engine writes `"` as
 * `\"`, a backslash as `\\`, a newline as `\n` and a carriage return as `\r` (ha_tina::encode_quote, read back by
 * find_current_row, storage/csv/ha_tina.cc), so every row is one line. user_host is `priv_user[user] @ host [ip]`
 * (make_user_name in sql/sql_audit.h): the account of every record, where the file output names it only in a
 * connection's Connect.
 * The commands and their mapping are the file output's (src/plugins/logs/general-log.ts).
 */
import type { LogParser } from '../audit-event.ts';
import { collect, frameLines, type RecordOutcome, reject } from './framing.ts';
import { fillFromContext, generalLogEvent } from './general-log.ts';

/** A quoted field (escapes as the CSV engine writes them) or a bare one, then a comma or the end. */
const FIELD = /"((?:[^"\\]|\\.)*)"|([^,"]*)/y;
const USER_HOST = /^[^[]*\[([^\]]*)\] @ (\S*) \[([^\]]*)\]$/;
const TIME = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)$/;

export const parseGeneralLogTable: LogParser = (text) => {
  const { events, rejected } = collect(frameLines(text), parseRow);
  return { events: fillFromContext(events), rejected };
};

function parseRow(text: string): RecordOutcome {
  const fields = csvRow(text);
  if (typeof fields === 'string') return reject(fields);
  if (fields.length !== 6) return reject(`${fields.length} columns, the table has 6`);
  const [eventTime = '', userHost = '', threadId = '', , command = '', argument = ''] = fields;
  const time = TIME.exec(eventTime);
  if (!time) return reject(`event_time ${JSON.stringify(eventTime)} is not a timestamp`);
  if (!/^\d+$/.test(threadId)) return reject(`thread_id ${JSON.stringify(threadId)} is not a number`);
  const account = USER_HOST.exec(userHost);
  if (!account) return reject(`user_host ${JSON.stringify(userHost)} is not user[user] @ host [ip]`);
  const [, user = '', host = '', ip = ''] = account;
  return generalLogEvent({
    time: `${time[1]}T${time[2]}`,
    connectionId: Number(threadId),
    command,
    argument,
    user,
    host: host || ip,
  });
}

/** The fields of one row, unescaped; a string says where it stops being the CSV engine's CSV. */
export function csvRow(row: string): string[] | string {
  const fields: string[] = [];
  for (let at = 0; ; at++) {
    FIELD.lastIndex = at;
    const m = FIELD.exec(row);
    if (!m) return `unreadable field at column ${at + 1}`;
    fields.push(m[1] !== undefined ? unescapeField(m[1]) : (m[2] ?? ''));
    at = FIELD.lastIndex;
    if (at === row.length) return fields;
    if (row[at] !== ',') return `expected "," at column ${at + 1}, got ${JSON.stringify(row[at])}`;
  }
}

// ha_tina::find_current_row: \r and \n are the control characters, \\ and \" the character; any other pair is kept.
const unescapeField = (quoted: string): string =>
  quoted.replace(/\\(.)/g, (pair, c: string) =>
    c === 'n' ? '\n' : c === 'r' ? '\r' : c === '\\' || c === '"' ? c : pair,
  );
