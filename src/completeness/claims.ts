import type { PluginProfile } from '../plugins/profile.ts';
import { sql } from '../plugins/steps.ts';
import type { Claims } from './kinds.ts';
import { claimsFromExpectations } from './kinds.ts';
import type { CompletenessSetup } from './setup.ts';

/**
 * server_audit_events is a SET; empty logs every class (MariaDB KB, "Audit Plugin Log Settings" and the
 * server_audit_events reference). QUERY_DML covers SELECT and INSERT, QUERY_DML_NO_SELECT only the writes,
 * QUERY_DDL CREATE TABLE; a failed statement is logged under the class of its command (the failing marker is a SELECT).
 */
export function serverAuditClaims(events: string): Claims {
  const set = new Set(
    events
      .replace(/^'|'$/g, '')
      .split(',')
      .map((e) => e.trim().toUpperCase())
      .filter(Boolean),
  );
  const all = set.size === 0;
  const has = (...classes: string[]) => all || classes.some((c) => set.has(c));
  const claim = (on: boolean) => (on ? 'logged' : 'absent');
  return {
    read: claim(has('QUERY', 'QUERY_DML')),
    write: claim(has('QUERY', 'QUERY_DML', 'QUERY_DML_NO_SELECT')),
    failed: claim(has('QUERY', 'QUERY_DML')),
    ddl: claim(has('QUERY', 'QUERY_DDL')),
    connect: claim(has('CONNECT')),
    failedLogin: claim(has('CONNECT')),
  };
}

// file_logger (mysys/file_logger.c), shared by server_audit and sql_errlog, writes each record with one write() under
// a mutex, no user-space buffer and no fsync: a killed server loses nothing it wrote, a crashed machine may.
const FILE_LOGGER =
  'one write() per record, no buffer, no fsync (mysys/file_logger.c): a SIGKILL loses only records not yet written';

export const completenessSetups: Record<string, CompletenessSetup> = {
  SERVER_AUDIT: {
    claims: (profile) => serverAuditClaims(profile.measureSettings.server_audit_events ?? "''"),
    // Under sysbench server_audit writes megabytes a second; 999 is the most file_logger keeps.
    rotation: { kind: 'size', sizeBytes: 1_048_576, rotations: 999 },
    durabilityNote: `no sync setting; ${FILE_LOGGER}. MariaDB answers the client before it calls the audit plugins (dispatch_command, thd_prepare_connection), so a kill between the two loses an acked event`,
  },
  general_log: {
    claims: (profile) => ({
      ...claimsFromExpectations(profile.expected),
      failed: 'logged',
      connect: 'logged',
      failedLogin: 'logged',
    }),
    // No rotation of its own: the harness switches general_log_file, as a DBA's rotation script would.
    rotation: {
      kind: 'switch',
      everyMs: 1_500,
      steps: (k) => [sql(`SET GLOBAL general_log_file = 'general.log.${k}'`)],
    },
    durabilityNote:
      'written when the server receives the command, before it runs, and flushed to the file at once (MYSQL_QUERY_LOG::write, sql/log.cc); no sync setting',
  },
  SQL_ERROR_LOG: {
    // Failed logins are error 1045 to it (recorded live, fixtures/logs/sql-errors-10.11.log).
    claims: (profile) => ({
      ...claimsFromExpectations(profile.expected),
      connect: 'absent',
      failedLogin: 'logged',
    }),
    // Only failures reach it, so the markers fill it: ~200 bytes a record.
    rotation: { kind: 'size', sizeBytes: 2_048, rotations: 999 },
    durabilityNote: `no sync setting; ${FILE_LOGGER}. Errors are logged when raised, before the client gets them`,
  },
};

/** The setup for a profile, or null when its completeness is not checked (no log file, or no setup written). */
export const completenessSetupFor = (profile: PluginProfile): CompletenessSetup | null =>
  profile.log.file === null ? null : (completenessSetups[profile.name] ?? null);
