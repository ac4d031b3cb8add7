import type { LogParser } from '../audit-event.ts';
import { parseGeneralLog } from './general-log.ts';
import { parseGeneralLogTable } from './general-log-table.ts';
import { parseMcafeeJson } from './mcafee-json.ts';
import { parseMysqlEnterpriseJson } from './mysql-enterprise-json.ts';
import { parsePerconaCsv, parsePerconaJson, parsePerconaNew, parsePerconaOld } from './percona-audit-log.ts';
import { parseServerAuditLog } from './server-audit-log.ts';
import { parseServerAuditSyslog } from './server-audit-syslog.ts';
import { parseSqlErrlog } from './sql-errlog.ts';

export { INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';
export { type PerconaFormat, percona } from './percona-audit-log.ts';

/** The audit log formats auditbench reads; a plugin profile names one. */
export type LogFormat =
  | 'server_audit'
  | 'server_audit_syslog'
  | 'sql_errlog'
  | 'mcafee_json'
  | 'percona_old'
  | 'percona_new'
  | 'percona_json'
  | 'percona_csv'
  | 'mysql_enterprise_json'
  | 'general_log'
  | 'general_log_table';

/**
 * One pure parser per format: text in, events and numbered rejections out, never a throw. Records a format defines
 * as no event (McAfee and Percona headers, MySQL startup/shutdown) are skipped; a last line or record still being
 * written is rejected with INCOMPLETE_LINE or INCOMPLETE_RECORD, so a reader tailing a live log can retry it.
 */
export const logParsers: Record<LogFormat, LogParser> = {
  server_audit: parseServerAuditLog,
  server_audit_syslog: parseServerAuditSyslog,
  sql_errlog: parseSqlErrlog,
  mcafee_json: parseMcafeeJson,
  percona_old: parsePerconaOld,
  percona_new: parsePerconaNew,
  percona_json: parsePerconaJson,
  percona_csv: parsePerconaCsv,
  mysql_enterprise_json: parseMysqlEnterpriseJson,
  general_log: parseGeneralLog,
  general_log_table: parseGeneralLogTable,
};
