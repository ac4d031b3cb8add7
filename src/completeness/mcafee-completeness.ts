import { sql } from '../plugins/steps.ts';
import { claimsFromExpectations } from './kinds.ts';
import type { CompletenessSetup } from './setup.ts';

/**
 * McAfee AUDIT's completeness setup. Its JSON records carry the statement text as sent (`"query"`), so the markers are
 * found by the mcafee_json parser like any other log's; connects and failed logins are not claimed (the profile says
 * nothing about them under the default audit_record_cmds).
 */
export const mcafeeCompleteness: CompletenessSetup = {
  claims: (profile) => claimsFromExpectations(profile.expected),
  // No rotation of its own: the harness names a new audit_json_log_file and flushes, as a DBA's job would.
  rotation: {
    kind: 'switch',
    everyMs: 1_500,
    steps: (k) => [
      sql(`SET GLOBAL audit_json_log_file = 'mysql-audit.json.${k}'`),
      sql('SET GLOBAL audit_json_file_flush = ON'),
    ],
  },
  durabilityNote:
    'written through a stdio FILE buffer of BUFSIZ bytes (audit_json_file_bufsize; 1 = unbuffered) and fsynced only every audit_json_file_sync writes (default 0, never): a SIGKILL loses what the buffer held (Audit_file_handler::open and write_no_lock, src/audit_handler.cc)',
};
