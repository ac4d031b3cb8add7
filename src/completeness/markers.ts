import type { AuditEvent } from '../plugins/audit-event.ts';
import { type EventKind, eventKinds, type StatementKind } from './kinds.ts';

/**
 * Markers of one phase. Statements carry `ab:<tag>:<kind>:<n>` in a comment, which every text log keeps as sent;
 * a connect is known by its connection id under a user of its own; a failed login by the user name it tried.
 */
export interface MarkerNames {
  /** Lower-case letters and digits, unique per phase. */
  tag: string;
  /** Schema holding the marker table and the DDL marker tables. */
  schema: string;
}

const TAG = /^[a-z0-9]{1,12}$/;
const MARKER = /\bab:([a-z0-9]+):(read|write|failed|ddl):(\d+)\b/g;
// ER_ACCESS_DENIED_ERROR: how sql_errlog records a failed login (server_audit and the general log say FAILED_CONNECT).
const FAILED_LOGIN_ERRNO = 1045;

export function newTag(random: () => number = Math.random): string {
  return Array.from(
    { length: 8 },
    () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)],
  ).join('');
}

function checkTag(tag: string): string {
  if (!TAG.test(tag)) throw new Error(`A marker tag must be 1-12 lower-case letters or digits, got '${tag}'`);
  return tag;
}

export const statementMarker = (tag: string, kind: StatementKind, n: number): string =>
  `ab:${checkTag(tag)}:${kind}:${n}`;
export const connectUser = (tag: string): string => `abc_${checkTag(tag)}`;
/** The account the phase's statement markers are sent as: its own, so neither root nor the connect user sends them. */
export const statementUser = (tag: string): string => `abs_${checkTag(tag)}`;
export const failedLoginUser = (tag: string, n: number): string => `abf_${checkTag(tag)}_${n}`;

/** The statement of marker n of a statement kind; `failed` names a table that does not exist (error 1146). */
export function markerStatement(names: MarkerNames, kind: StatementKind, n: number): string {
  const comment = `/* ${statementMarker(names.tag, kind, n)} */`;
  const table = `\`${names.schema}\`.markers`;
  switch (kind) {
    case 'read':
      return `SELECT id FROM ${table} WHERE id = ${n} ${comment}`;
    case 'write':
      return `INSERT INTO ${table} (kind, n) VALUES ('write', ${n}) ${comment}`;
    case 'failed':
      return `SELECT id FROM \`${names.schema}\`.missing_${names.tag} WHERE id = ${n} ${comment}`;
    case 'ddl':
      // Metadata only: thousands of these leave no tables behind.
      return `ALTER TABLE \`${names.schema}\`.ddl_target COMMENT = '${n}' ${comment}`;
  }
}

/** Marker id → how many records hold it, per kind. */
export type FoundMarkers = Record<EventKind, Map<number, number>>;

export const emptyFound = (): FoundMarkers =>
  Object.fromEntries(eventKinds.map((kind) => [kind, new Map<number, number>()])) as FoundMarkers;

const bump = (map: Map<number, number>, id: number) => map.set(id, (map.get(id) ?? 0) + 1);

/**
 * Finds this phase's markers in parsed events. A record counts once for each distinct marker in its statement text;
 * a connect is a CONNECT of the phase's connect user (id: connection id); a failed login is a FAILED_CONNECT or an
 * error 1045 of one of the phase's failed-login users (id: n).
 */
export function findMarkers(events: AuditEvent[], tag: string): FoundMarkers {
  const found = emptyFound();
  const loginUser = new RegExp(`^abf_${checkTag(tag)}_(\\d+)$`);
  const connectAs = connectUser(tag);
  for (const e of events) {
    if (e.queryText.includes(`ab:${tag}:`)) {
      const seen = new Set<string>();
      for (const [marker, markerTag, kind, n] of e.queryText.matchAll(MARKER)) {
        if (markerTag !== tag || seen.has(marker)) continue;
        seen.add(marker);
        bump(found[kind as StatementKind], Number(n));
      }
    }
    if (e.operation === 'CONNECT' && e.user === connectAs && e.connectionId !== null) {
      bump(found.connect, e.connectionId);
    }
    const login = loginUser.exec(e.user);
    if (login && (e.operation === 'FAILED_CONNECT' || e.errorCode === FAILED_LOGIN_ERRNO)) {
      bump(found.failedLogin, Number(login[1]));
    }
  }
  return found;
}
