/**
 * The lines a run's own syslog receiver writes (src/servers/syslog-receiver.ts, its template):
 * `<PRI>time tag:message`, one record a line, e.g.
 * `<157>2026-12-07T14:06:36.822776+00:00 payments:  vm,root,localhost,4,12,QUERY,,'SELECT 2',0`.
 *
 * - PRI is facility × 8 + severity (RFC 5424 §6.2.1; glibc's syslog() writes it); both become the names the plugins'
 *   settings use (LOG_LOCAL3, LOG_NOTICE).
 * - The tag is the ident openlog() was given, `[pid]` after it when the program asked for LOG_PID.
 * - The message keeps the space glibc writes after the tag's colon; the receiver escapes no control character.
 */
import type { RawRecord } from './framing.ts';

export interface SyslogLine {
  facility: string;
  priority: string;
  /** The receiver's time, ISO 8601 to the second as the host's local time wrote it (the offset dropped). */
  time: string;
  /** The ident, without `[pid]`. */
  ident: string;
  /** The message after the tag's colon and glibc's one space. */
  message: string;
}

const LINE = /^<(\d{1,3})>(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\S* ([^\s:[]+)(?:\[\d+\])?: ?(.*)$/s;

const FACILITIES = [
  'KERN',
  'USER',
  'MAIL',
  'DAEMON',
  'AUTH',
  'SYSLOG',
  'LPR',
  'NEWS',
  'UUCP',
  'CRON',
  'AUTHPRIV',
  'FTP',
];
const SEVERITIES = ['EMERG', 'ALERT', 'CRIT', 'ERR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG'];

/** The facility's name for its code: LOG_USER for 1, LOG_LOCAL0 … LOG_LOCAL7 for 16 … 23. */
export function facilityName(code: number): string {
  if (code >= 16 && code <= 23) return `LOG_LOCAL${code - 16}`;
  return `LOG_${FACILITIES[code] ?? String(code)}`;
}

/** One receiver line, or why it is none. */
export function parseSyslogLine(text: string): SyslogLine | string {
  const m = LINE.exec(text);
  if (!m) return 'not a syslog line of the receiver: expected <PRI>time tag: message';
  const pri = Number(m[1]);
  return {
    facility: facilityName(pri >> 3),
    priority: `LOG_${SEVERITIES[pri & 7]}`,
    time: m[2] ?? '',
    ident: m[3] ?? '',
    message: m[4] ?? '',
  };
}

/** The lines' headers, for a check that asserts the ident, facility and priority a configuration names. */
export function syslogLines(records: readonly RawRecord[]): SyslogLine[] {
  return records
    .map((record) => parseSyslogLine(record.text))
    .filter((line): line is SyslogLine => typeof line !== 'string');
}
