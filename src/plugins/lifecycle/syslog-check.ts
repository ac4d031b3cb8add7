import { readLogText } from '../log-reader.ts';
import { frameLines } from '../logs/framing.ts';
import { splitInfo } from '../logs/server-audit-syslog.ts';
import { syslogLines } from '../logs/syslog-framing.ts';
import { check, type LifecycleStep, notApplicable } from './context.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A configuration that sends records to syslog: the record of logs-query's statement, as the run's own receiver got
 * it, carries the ident, facility, priority and info string the settings name (server_audit_syslog_*).
 */
export const syslogHeader: LifecycleStep = {
  id: 'syslog-header',
  title: 'sent to syslog with the ident, facility, priority and info configured',
  async run(ctx) {
    const expected = ctx.expected.syslog;
    if (expected === undefined)
      return notApplicable('syslog-header', 'does not send to syslog under this configuration');
    if (!ctx.expected.logsSuccessfulQueries || !ctx.audited.checks) {
      return notApplicable('syslog-header', "this configuration does not log logs-query's statement");
    }
    const needle = `${ctx.marker}-ok`;
    for (let waitedMs = 0; ; waitedMs += 100) {
      const lines = syslogLines(frameLines(await readLogText(ctx.server, ctx.profile)).records);
      const line = lines.find((l) => l.message.includes(needle));
      if (line || waitedMs >= 2_000) {
        const observed = line
          ? {
              ident: line.ident,
              facility: line.facility,
              priority: line.priority,
              info: splitInfo(line.message)?.info ?? null,
            }
          : 'no record of the statement';
        return check('syslog-header', { ...expected }, observed, { file: ctx.profile.log.file, needle });
      }
      await sleep(100);
    }
  },
};
