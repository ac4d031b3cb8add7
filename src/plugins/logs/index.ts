import type { LogParser } from '../audit-event.ts';
import { parseMcafeeJson } from './mcafee-json.ts';
import { parseServerAuditLog } from './server-audit-log.ts';
import { parseSqlErrlog } from './sql-errlog.ts';

// Registry of log formats (the remaining formats are added as their parsers land).
export type LogFormat = 'server_audit' | 'sql_errlog' | 'mcafee_json';

export const logParsers: Record<LogFormat, LogParser> = {
  server_audit: parseServerAuditLog,
  sql_errlog: parseSqlErrlog,
  mcafee_json: parseMcafeeJson,
};
