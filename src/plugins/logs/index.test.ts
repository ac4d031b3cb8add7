import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { type LogFormat, logParsers } from './index.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');

test.for<[LogFormat, string, number]>([
  ['server_audit', 'server-audit-10.11.log', 125],
  ['sql_errlog', 'sql-errors-10.11.log', 13],
  ['mcafee_json', 'mcafee-audit.log', 5],
  ['percona_old', 'percona-old.xml', 4],
  ['percona_new', 'percona-new.xml', 2],
  ['percona_json', 'percona-audit.log', 12],
  ['percona_csv', 'percona-audit.csv', 2],
  ['mysql_enterprise_json', 'mysql-enterprise-8.0.22.log', 29],
  ['server_audit_syslog', 'server-audit-syslog-10.11.log', 4],
])('%s reads %s', ([format, name, count]) => {
  const { events, rejected } = logParsers[format](fixture(name));
  expect(rejected).toEqual([]);
  expect(events).toHaveLength(count);
});

// Whatever the bytes, a parser answers: arbitrary text becomes rejections, never an exception or a silent drop.
test.for(Object.keys(logParsers) as LogFormat[])('%s does not throw on garbage', (format) => {
  const garbage = '\u0000{"<AUDIT_RECORD \'\n"\\\n}}]],,\n\n<AUDIT_RECORD>\n"a",\n{';
  const { events, rejected } = logParsers[format](garbage);
  expect(events).toEqual([]);
  expect(rejected.length).toBeGreaterThan(0);
});
