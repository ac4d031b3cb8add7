/**
 * Percona Server audit_log plugin (the legacy plugin, not audit_log_filter), in its four audit_log_format values.
 * Source: audit_log_general_record(), audit_log_connection_record(), audit_log_audit_record() in
 * plugin/audit_log/audit_log.cc; examples in percona/psmysql-docs docs/audit-log-plugin.md.
 *
 * - OLD: `<AUDIT_RECORD NAME="Query" RECORD="…" TIMESTAMP="…" …/>`, one attribute per line; NEW: the same fields as
 *   child elements. Both inside `<AUDIT>…</AUDIT>`, whose closing tag is missing while the file is open.
 * - JSON: `{"audit_record":{…}}` per line, lower-case keys, `status` a number, `connection_id` a string.
 * - CSV: general records `name,record,timestamp,command_class,connection_id,status,sqltext,user,host,os_user,ip,db`;
 *   connection records `name,record,timestamp,connection_id,status,user,priv_user,os_login,proxy_user,host,ip,db`.
 *   Releases of 2014 had no trailing db field.
 * - NAME `Audit` (header, on open) and `NoAudit` (footer, on close) are not events: skipped, not rejected.
 * - NAME `Connect` → CONNECT, or FAILED_CONNECT when STATUS is non-zero; `Quit` → DISCONNECT; `Change user` →
 *   CHANGE_USER; other names (`Query`, `Execute`, `Init DB`) upper-cased → QUERY, EXECUTE, INIT_DB.
 * - General records carry USER as `priv_user[user] @ host [ip]`; connection records a plain user name.
 * - TIMESTAMP is UTC: `2021-06-30T11:57:14 UTC` (older) or `2024-09-03T01:53:33Z` (newer) → `…Z`.
 */
import type { LogParser } from '../audit-event.ts';
import { csvFields, frameCsvRecords } from './csv-records.ts';
import {
  collect,
  event,
  frameLines,
  optionalInt,
  type RecordOutcome,
  reject,
  skip,
  upperSnake,
} from './framing.ts';
import { parseJsonObject } from './json-records.ts';
import { parseUserHost } from './user-host.ts';
import { frameXmlRecords, type XmlStyle, xmlFields } from './xml-records.ts';

export type PerconaFormat = 'OLD' | 'NEW' | 'JSON' | 'CSV';

type Fields = Record<string, unknown>;

const NAMED_OPERATIONS: Record<string, string> = { Quit: 'DISCONNECT', 'Change user': 'CHANGE_USER' };
const CONNECTION_NAMES = new Set(['Connect', 'Quit', 'Change user']);
// biome-ignore format: one row per CSV layout reads better than one name per line
const CSV_COLUMNS = {
  general: ['NAME', 'RECORD', 'TIMESTAMP', 'COMMAND_CLASS', 'CONNECTION_ID', 'STATUS', 'SQLTEXT', 'USER', 'HOST', 'OS_USER', 'IP', 'DB'],
  connection: ['NAME', 'RECORD', 'TIMESTAMP', 'CONNECTION_ID', 'STATUS', 'USER', 'PRIV_USER', 'OS_LOGIN', 'PROXY_USER', 'HOST', 'IP', 'DB'],
};

export const parsePerconaOld: LogParser = (text) => collect(frameXmlRecords(text), xmlRecord('attributes'));
export const parsePerconaNew: LogParser = (text) => collect(frameXmlRecords(text), xmlRecord('elements'));
export const parsePerconaJson: LogParser = (text) => collect(frameLines(text), jsonRecord);
export const parsePerconaCsv: LogParser = (text) => collect(frameCsvRecords(text), csvRecord);

const PARSERS: Record<PerconaFormat, LogParser> = {
  OLD: parsePerconaOld,
  NEW: parsePerconaNew,
  JSON: parsePerconaJson,
  CSV: parsePerconaCsv,
};

/** The parser for an `audit_log_format` value. */
export const percona = (format: PerconaFormat): LogParser => PARSERS[format];

// The header's STARTUP_OPTIONS is written unescaped and may break the markup; it is no event either way.
const XML_HEADER_OR_FOOTER = /^<AUDIT_RECORD(?:\s+NAME="|>\s*<NAME>)(?:No)?Audit["<]/;

function xmlRecord(style: XmlStyle): (text: string) => RecordOutcome {
  return (text) => {
    const fields = xmlFields(text, style);
    if (typeof fields !== 'string') return fromRecord(fields);
    return XML_HEADER_OR_FOOTER.test(text) ? skip : reject(fields);
  };
}

function jsonRecord(line: string): RecordOutcome {
  const parsed = parseJsonObject(line);
  if (typeof parsed === 'string')
    return reject(parsed.startsWith('invalid') ? parsed : 'expected {"audit_record":{…}}');
  const record = parsed.audit_record;
  if (typeof record !== 'object' || record === null) return reject('expected {"audit_record":{…}}');
  return fromRecord(
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toUpperCase(), value])),
  );
}

function csvRecord(text: string): RecordOutcome {
  const fields = csvFields(text);
  if (typeof fields === 'string') return reject(fields);
  const name = fields[0]?.value ?? '';
  if (name === 'Audit' || name === 'NoAudit') return skip;
  const names = CONNECTION_NAMES.has(name) ? CSV_COLUMNS.connection : CSV_COLUMNS.general;
  if (fields.length !== names.length && fields.length !== names.length - 1) {
    return reject(
      `expected ${names.length - 1} or ${names.length} fields for "${name}", got ${fields.length}`,
    );
  }
  const status = fields[names.indexOf('STATUS')];
  if (status?.quoted) return reject('STATUS must be a bare number');
  return fromRecord(Object.fromEntries(fields.map((field, i) => [names[i], field.value])));
}

/** Maps one record's fields (upper-case names, as in the XML formats) to an event. */
function fromRecord(fields: Fields): RecordOutcome {
  const name = str(fields.NAME);
  if (name === 'Audit' || name === 'NoAudit') return skip;
  if (name === '') return reject('missing NAME');
  const connectionId = optionalInt(fields.CONNECTION_ID);
  if (typeof connectionId !== 'number') {
    return reject(`CONNECTION_ID must be a number, got ${JSON.stringify(fields.CONNECTION_ID)}`);
  }
  const status = optionalInt(fields.STATUS);
  if (status === undefined) return reject(`STATUS must be a number, got ${JSON.stringify(fields.STATUS)}`);
  const time = str(fields.TIMESTAMP);
  if (time === '') return reject('missing TIMESTAMP');
  const account = parseUserHost(str(fields.USER));
  return event({
    time: time.replace(/ UTC$/, 'Z'),
    user: account?.user ?? str(fields.USER),
    host: str(fields.HOST) || str(fields.IP) || (account?.host ?? ''),
    connectionId,
    queryId: null,
    operation: operationOf(name, status),
    database: str(fields.DB),
    object: '',
    queryText: str(fields.SQLTEXT),
    errorCode: status,
  });
}

function operationOf(name: string, status: number | null): string {
  if (name === 'Connect') return status ? 'FAILED_CONNECT' : 'CONNECT';
  return NAMED_OPERATIONS[name] ?? upperSnake(name);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
