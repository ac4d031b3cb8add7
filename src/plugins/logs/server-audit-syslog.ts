/**
 * server_audit's records as the run's own syslog receiver keeps them (server_audit_output_type=syslog): a receiver
 * line (syslog-framing.ts) whose message is `<server_audit_syslog_info> <record>`, the record the file's fields
 * without their timestamp (log_header() in server_audit.c writes none for syslog; seen live on 10.11.19):
 * `<157>2026-12-07T14:06:36+00:00 payments: inf o vm,root,localhost,4,12,QUERY,,'SELECT 2',0`. The event's time is
 * the receiver's.
 */
import type { LogParser } from '../audit-event.ts';
import { collect, frameLines, type RecordOutcome, reject } from './framing.ts';
import { parseServerAuditRecord } from './server-audit-log.ts';
import { parseSyslogLine } from './syslog-framing.ts';

/** Where a record starts: serverhost,user,host,connection id,query id,OPERATION, (the host name holds no space). */
const RECORD_START = /^[^\s,]*,[^,]*,[^,]*,\d+,\d+,[A-Z_]+,/;

/** The info string and the record of a message: the first space after which a record starts. */
export function splitInfo(message: string): { info: string; record: string } | null {
  for (let at = message.indexOf(' '); at >= 0; at = message.indexOf(' ', at + 1)) {
    const record = message.slice(at + 1);
    if (RECORD_START.test(record)) return { info: message.slice(0, at), record };
  }
  return null;
}

function parseLine(text: string): RecordOutcome {
  const line = parseSyslogLine(text);
  if (typeof line === 'string') return reject(line);
  const split = splitInfo(line.message);
  if (!split)
    return reject('no server_audit record after the info string: expected host,user,host,id,id,OPERATION,');
  return parseServerAuditRecord(`${line.time},${split.record}`);
}

export const parseServerAuditSyslog: LogParser = (text) => collect(frameLines(text), parseLine);
