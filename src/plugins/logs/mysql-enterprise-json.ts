/**
 * MySQL Enterprise Audit, audit_log_format=JSON (5.7.21+, 8.x; also the audit_log component of 9.x and Percona's
 * audit_log_filter, which write the same records). The file is a JSON array, `]` missing while it is open; objects
 * are pretty-printed or one per line (Refman "Audit Log File Formats"; real 8.0.22 log in Elastic's filebeat tests).
 *
 * - `timestamp` is UTC `YYYY-MM-DD hh:mm:ss` → `YYYY-MM-DDThh:mm:ssZ`.
 * - class `audit` (startup, shutdown) is not an event: skipped, not rejected.
 * - connection/connect → CONNECT (FAILED_CONNECT when connection_data.status is non-zero), change_user →
 *   CHANGE_USER, disconnect → DISCONNECT; database = connection_data.db.
 * - general/status → the protocol command upper-cased (`Query` → QUERY, `Init DB` → INIT_DB); general_data.query and
 *   .status. The record names no database.
 * - table_access → the event upper-cased (READ, INSERT, UPDATE, DELETE), database.table from table_access_data;
 *   errorCode null (the record has no status).
 * - Any other class (query, command, … in audit_log_filter logs) → `<CLASS>_<EVENT>` upper-cased, with the status
 *   and query of its `*_data` object when it has them.
 * - user and host: login.user and account.host, else login.ip. Percona's audit_log_filter writes
 *   `root[root] @ localhost []` into both user fields; that form is split.
 */
import type { AuditEvent, LogParser } from '../audit-event.ts';
import { collect, event, optionalInt, type RecordOutcome, reject, skip, upperSnake } from './framing.ts';
import {
  frameJsonObjects,
  isJsonObject as isObject,
  type JsonObject as Json,
  parseJsonObject,
} from './json-records.ts';
import { parseUserHost } from './user-host.ts';

const TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)$/;
const CONNECTION_EVENTS: Record<string, string> = { change_user: 'CHANGE_USER', disconnect: 'DISCONNECT' };

export const parseMysqlEnterpriseJson: LogParser = (text) => collect(frameJsonObjects(text), parseRecord);

function parseRecord(text: string): RecordOutcome {
  const record = parseJsonObject(text);
  if (typeof record === 'string') return reject(record);
  const { class: kind, event: name, timestamp } = record;
  if (kind === 'audit') return skip;
  if (typeof kind !== 'string' || typeof name !== 'string') return reject('missing "class" or "event"');
  const time = typeof timestamp === 'string' ? TIMESTAMP.exec(timestamp) : null;
  if (!time) return reject(`timestamp must be "YYYY-MM-DD hh:mm:ss", got ${JSON.stringify(timestamp)}`);
  const connectionId = optionalInt(record.connection_id);
  if (connectionId === undefined) return reject('connection_id must be a number');
  const details = classDetails(kind, name, record);
  if (typeof details === 'string') return reject(details);
  return event({
    time: `${time[1]}T${time[2]}Z`,
    ...account(record),
    connectionId,
    queryId: null,
    ...details,
  });
}

type Details = Pick<AuditEvent, 'operation' | 'database' | 'object' | 'queryText' | 'errorCode'>;

function classDetails(kind: string, name: string, record: Json): Details | string {
  const data = record[`${kind}_data`] ?? {};
  if (!isObject(data)) return `${kind}_data must be an object`;
  const status = optionalInt(data.status);
  if (status === undefined) return `${kind}_data.status must be a number`;
  const base: Details = {
    operation: '',
    database: '',
    object: '',
    queryText: text(data.query),
    errorCode: status,
  };
  if (kind === 'connection') {
    const connect = status ? 'FAILED_CONNECT' : 'CONNECT';
    const operation = name === 'connect' ? connect : (CONNECTION_EVENTS[name] ?? upperSnake(name));
    return { ...base, operation, database: text(data.db) };
  }
  if (kind === 'general') return { ...base, operation: upperSnake(text(data.command) || name) };
  if (kind === 'table_access') {
    return { ...base, operation: upperSnake(name), database: text(data.db), object: text(data.table) };
  }
  return { ...base, operation: upperSnake(`${kind}_${name}`) };
}

function account(record: Json): { user: string; host: string } {
  const login = isObject(record.login) ? record.login : {};
  const owner = isObject(record.account) ? record.account : {};
  const composite = parseUserHost(text(login.user)) ?? parseUserHost(text(owner.user));
  if (composite) return composite;
  return { user: text(login.user) || text(owner.user), host: text(owner.host) || text(login.ip) };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
