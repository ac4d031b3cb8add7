/**
 * McAfee/Trellix MySQL Audit plugin (`libaudit_plugin.so`) JSON file, one object per line. Source:
 * Audit_json_formatter::event_format() and start_msg_format() in src/audit_handler.cc (trellix-enterprise/mysql-audit).
 *
 * - Every number is written as a string (`"thread-id":"8"`); plain numbers are accepted too.
 * - Keys can repeat (`os_user` twice on 8.0 UNIX-socket clients); JSON.parse keeps the last, which is harmless here.
 * - `msg-type":"header"` records (written at every open and flush) are not events: they are skipped, not rejected.
 * - `status` (the statement's errno) is missing before ~2017 (issue #82): errorCode null.
 * - `date` is epoch milliseconds → ISO 8601 UTC.
 * - cmd `Connect`, `Quit`, `Failed Login`, `Change user` → CONNECT, DISCONNECT, FAILED_CONNECT, CHANGE_USER. A
 *   lower-case cmd is an SQL command name (`select`, `create_table`) → QUERY; another protocol command is upper-cased.
 * - `objects` → object `db.name` for each, joined with ','; database is the first object's db (the plugin logs no
 *   default database).
 * - With no statement text the plugin writes the cmd name (or "n/a") as `query`: queryText ''.
 */
import type { LogParser } from '../audit-event.ts';
import { event, optionalInt, type RecordOutcome, reject, skip, upperSnake } from './framing.ts';
import { collectJsonLines, isJsonObject as isObject, type JsonObject as Json } from './json-records.ts';

const CONNECTION_COMMANDS: Record<string, string> = {
  Connect: 'CONNECT',
  Quit: 'DISCONNECT',
  'Failed Login': 'FAILED_CONNECT',
  'Change user': 'CHANGE_USER',
};

export const parseMcafeeJson: LogParser = (text) => collectJsonLines(text, parseRecord);

function parseRecord(record: Json): RecordOutcome {
  const type = record['msg-type'];
  if (type === 'header') return skip;
  if (type !== 'activity') return reject(`unknown msg-type ${JSON.stringify(type)}`);
  return parseActivity(record);
}

function parseActivity(record: Json): RecordOutcome {
  const { cmd, date, query } = record;
  const millis = optionalInt(date);
  if (typeof millis !== 'number')
    return reject(`date must be epoch milliseconds, got ${JSON.stringify(date)}`);
  if (typeof cmd !== 'string' || cmd === '') return reject('missing cmd');
  const ids = [record['thread-id'], record['query-id'], record.status].map(optionalInt);
  const [connectionId, queryId, errorCode] = ids;
  if (connectionId === undefined || queryId === undefined || errorCode === undefined) {
    return reject('thread-id, query-id and status must be decimal numbers');
  }
  const objects = objectNames(record.objects);
  if (objects === null) return reject('objects must be an array of {db, name}');
  return event({
    time: new Date(millis).toISOString(),
    user: text(record.user),
    host: text(record.host) || text(record.ip),
    connectionId,
    queryId,
    operation: CONNECTION_COMMANDS[cmd] ?? (/^[a-z_]+$/.test(cmd) ? 'QUERY' : upperSnake(cmd)),
    database: objects[0]?.db ?? '',
    object: objects.map((o) => (o.db ? `${o.db}.${o.name}` : o.name)).join(','),
    queryText: typeof query !== 'string' || query === cmd || query === 'n/a' ? '' : query,
    errorCode,
    command: cmd,
  });
}

function objectNames(value: unknown): { db: string; name: string }[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject)) return null;
  return value.map((o) => ({ db: text(o.db), name: text(o.name) }));
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
