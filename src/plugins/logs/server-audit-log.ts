/**
 * MariaDB server_audit file log (also the AWS MySQL 8.0 port), one record per line:
 * `<timestamp>,<serverhost>,<username>,<host>,<connectionid>,<queryid>,<operation>,<database>,<object>,<retcode>`.
 *
 * - QUERY objects are single-quoted with `\'`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f` escapes (source: escaped_char() in
 *   server_audit.c) and may hold commas and quotes; they become `queryText`, and `object` stays ''.
 * - TABLE events (READ, WRITE, CREATE, DROP, ALTER, RENAME) have an empty retcode: errorCode null.
 * - RENAME keeps its object as logged (`t1|test.renamed_t1`); 12.x CONNECT keeps its TLS version in `object`.
 * - 12.0.1+ writes `host:port` (`localhost:unavailable` in Enterprise); the port is dropped so hosts compare across
 *   versions. An IPv6 host with a port (`::1:54312`) cannot be split safely and is kept whole.
 * - The AWS port adds the connection type after the retcode of connection records (`,0,TCP/IP`); it is ignored.
 * - The default timestamp (`20230221 17:47:57`, local time) becomes `2023-02-21T17:47:57`; a custom
 *   server_audit_timestamp_format is kept as written (one without commas).
 */
import type { AuditEvent, LogParser } from '../audit-event.ts';
import { collect, event, frameLines, type RecordOutcome, reject } from './framing.ts';

const HEAD = /^([^,]+),([^,]*),([^,]*),([^,]*),(\d+),(\d+),([A-Z_]+),([^,]*),/;
const RETCODE = /^,(\d*)(?:,[A-Z_/]+)?$/;
const DEFAULT_TIME = /^(\d{4})(\d\d)(\d\d) (\d\d:\d\d:\d\d)$/;
const HOST_PORT = /^([^:]*):(?:\d+|unavailable)$/;
const UNESCAPED: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  "'": "'",
  '\\': '\\',
};

export const parseServerAuditLog: LogParser = (text) => collect(frameLines(text), parseServerAuditRecord);

export function parseServerAuditRecord(line: string): RecordOutcome {
  const head = HEAD.exec(line);
  if (!head)
    return reject('not a server_audit record: expected timestamp,host,user,host,id,id,OPERATION,db,');
  const [
    matched,
    time = '',
    ,
    user = '',
    host = '',
    connectionId = '',
    queryId = '',
    operation = '',
    db = '',
  ] = head;
  const tail = splitObject(line.slice(matched.length));
  if (typeof tail === 'string') return reject(tail);
  const base: AuditEvent = {
    time: isoTime(time),
    user,
    host: HOST_PORT.exec(host)?.[1] ?? host,
    connectionId: Number(connectionId),
    queryId: Number(queryId),
    operation,
    database: db,
    object: '',
    queryText: '',
    errorCode: tail.retcode === '' ? null : Number(tail.retcode),
  };
  return event(
    tail.quoted ? { ...base, queryText: unescapeQuery(tail.object) } : { ...base, object: tail.object },
  );
}

interface ObjectAndRetcode {
  object: string;
  quoted: boolean;
  retcode: string;
}

/** Splits `<object>,<retcode>`, where a quoted object may contain commas; returns the reason when it cannot. */
function splitObject(rest: string): ObjectAndRetcode | string {
  const quoted = rest.startsWith("'");
  const end = quoted ? closingQuote(rest) : rest.indexOf(',');
  if (end < 0) return quoted ? 'unterminated quoted query text' : 'missing retcode field';
  const object = quoted ? rest.slice(1, end) : rest.slice(0, end);
  const retcode = RETCODE.exec(rest.slice(quoted ? end + 1 : end));
  if (!retcode) return `expected ",<retcode>" after the object, got ${JSON.stringify(rest.slice(end))}`;
  return { object, quoted, retcode: retcode[1] ?? '' };
}

/** Index of the quote that closes the one at index 0, skipping backslash escapes; -1 when there is none. */
function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return -1;
}

/** Undoes the plugin's escapes; an unknown escape (never written by any version seen) is kept as it stands. */
export const unescapeQuery = (text: string): string =>
  text.replace(/\\([\s\S])/g, (all, c: string) => UNESCAPED[c] ?? all);

function isoTime(time: string): string {
  const m = DEFAULT_TIME.exec(time);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}` : time;
}
