import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type LogFormat, logParsers } from '../plugins/logs/index.ts';
import { type Measurement, resultsFileSchema } from '../results/schema.ts';
import { type AuditLogBytes, type AuditRecords, formatRecord, withClass } from './audit-records.ts';
import { auditbenchMatchers, MIN_SECRET_CHARS, masked } from './matchers.ts';

expect.extend(auditbenchMatchers);

const read = (name: string): Buffer => {
  const bytes = readFileSync(new URL(`../../fixtures/logs/${name}`, import.meta.url));
  if (name !== 'percona-audit-mtr.csv') return bytes;
  // mtr masks record ids, times and connection ids; filled in as the parser's own test does.
  const filled = bytes
    .toString('utf8')
    .replaceAll('"<ID>","<DATETIME>"', '"1_2024-01-01T00:00:00","2024-01-01T00:00:00 UTC"')
    .replaceAll('"<CONN_ID>"', '"21"');
  return Buffer.from(filled);
};

// Every recorded log in fixtures/logs, with its format: each matcher is held to each.
const FIXTURES: [LogFormat, string][] = [
  ['server_audit', 'server-audit-10.11.log'],
  ['server_audit', 'server-audit-documented.log'],
  ['sql_errlog', 'sql-errors-10.11.log'],
  ['sql_errlog', 'sql-errors-10.11-with-db.log'],
  ['general_log', 'general-log-10.11.log'],
  ['mcafee_json', 'mcafee-audit.log'],
  ['mcafee_json', 'mcafee-audit-10.11.19.log'],
  ['percona_old', 'percona-old.xml'],
  ['percona_new', 'percona-new.xml'],
  ['percona_json', 'percona-audit.log'],
  ['percona_csv', 'percona-audit.csv'],
  ['percona_csv', 'percona-audit-mtr.csv'],
  ['mysql_enterprise_json', 'mysql-enterprise-8.0.22.log'],
  ['mysql_enterprise_json', 'mysql-enterprise-refman.log'],
  ['mysql_enterprise_json', 'mysql-enterprise-blog-2018.log'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function recorded(format: LogFormat, name: string) {
  const bytes = read(name);
  const records = withClass(format, logParsers[format](bytes.toString('utf8')).events);
  const sample = records.find((r) => r.queryText.length >= 4 && r.user.length >= 2) ?? records[0];
  if (!sample) throw new Error(`${name} holds no record`);
  const closed: AuditRecords = { format, records, closedBy: 'admin', notClosedBecause: null, rejected: [] };
  const open: AuditRecords = {
    ...closed,
    closedBy: null,
    notClosedBecause: 'no closing marker was asked for',
  };
  const pattern = {
    user: sample.user,
    operation: sample.operation,
    ...(sample.queryText.length >= 4 && { statement: sample.queryText.slice(0, 20) }),
  };
  // A text the file holds, long enough for toHoldText: a statement's start, a user or a host, as it is in the bytes.
  const texts = records.flatMap((r) => [r.queryText.slice(0, 12), r.user, r.host]);
  const present = texts.find((text) => text.length >= MIN_SECRET_CHARS && bytes.includes(text));
  return { bytes, records, sample, closed, open, pattern, present };
}

describe.for(FIXTURES)('%s: %s', ([format, name]) => {
  const { bytes, records, sample, closed, open, pattern, present } = recorded(format, name);
  const log: AuditLogBytes = { files: [{ name, bytes }], records, closedBy: 'admin', notClosedBecause: null };
  const N = records.length;

  test('toHaveLogged finds a record by a partial one, a string or a RegExp for the statement', () => {
    expect(closed).toHaveLogged(pattern);
    expect(open).toHaveLogged({ user: sample.user, class: sample.class });
    if (pattern.statement)
      expect(closed).toHaveLogged({ statement: new RegExp(`^${escapeRegExp(pattern.statement)}`) });
  });

  test('toHaveLogged fails quoting the records found', () => {
    const wanted = { user: 'nobody-here', statement: /never sent/ };
    expect(() => expect(closed).toHaveLogged(wanted)).toThrow(
      `expected a record matching { user: "nobody-here", statement: /never sent/ }, none of ${N} record(s) since the mark (closed by admin's marker) does:\n  ${formatRecord(records[0] ?? sample)}`,
    );
  });

  test('.not.toHaveLogged passes on closed records without a match', () => {
    expect(closed).not.toHaveLogged({ statement: 'never sent' });
  });

  test('.not.toHaveLogged fails quoting the matching records', () => {
    expect(() => expect(closed).not.toHaveLogged(pattern)).toThrow(/^expected no record matching \{ user: /);
    expect(() => expect(closed).not.toHaveLogged(pattern)).toThrow(`  ${formatRecord(sample)}`);
  });

  test('.not.toHaveLogged refuses records no marker closed: a lagging log would pass it', () => {
    expect(() => expect(open).not.toHaveLogged({ statement: 'never sent' })).toThrow(
      `cannot show that no record matches { statement: "never sent" }: the records were not closed (no closing marker was asked for); read them with audit.since(mark, { closedBy: anAuditedAccount })\nFound ${N} record(s) since the mark:`,
    );
  });

  test('.not.toHoldText passes when no byte and no record holds the text', () => {
    expect(log).not.toHoldText('S3cret-never-logged');
  });

  test('.not.toHoldText fails naming the file, the byte and what is around it, the text masked', () => {
    if (!present) throw new Error(`${name}: no text of the sample is in its bytes`);
    const at = bytes.indexOf(present);
    expect(() => expect(log).not.toHoldText(present)).toThrow(
      `expected ${masked(present)} in no log byte and no record, found it in:\n  ${name} at byte ${at}: `,
    );
  });

  test('.not.toHoldText reads a rotated file too, and lines the parser rejected', () => {
    const rotated = { name: `${name}.1`, bytes: Buffer.from('garbage line holding S3cret-rotated\n') };
    const both: AuditLogBytes = { ...log, files: [{ name, bytes }, rotated] };
    expect(() => expect(both).not.toHoldText('S3cret-rotated')).toThrow(`  ${name}.1 at byte 21: `);
  });

  test('toHoldText fails naming the files it read', () => {
    expect(() => expect(log).toHoldText('S3cret-never-logged')).toThrow(
      `expected "S3…" (19 characters) in the log, but none of 1 log file(s) (${name}) and no record holds it`,
    );
  });
});

describe('toCostAtMostPct judges the interval by the bench’s rules', () => {
  const results = resultsFileSchema.parse(
    JSON.parse(
      readFileSync(
        new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url),
        'utf8',
      ),
    ),
  );
  const recordedMeasurement = results.results[0]?.measurement as Measurement;
  const at = (ci: [number, number], estimate: number): Measurement => ({
    ...recordedMeasurement,
    overheadPct: estimate,
    overheadCi95: ci,
    interference: undefined,
    latency: undefined,
  });
  const run = (m: Measurement, inconclusive: 'fail' | 'pass' = 'fail') => ({
    measurement: m,
    policy: { inconclusive, interference: 'warn' as const },
    where: 'compliance, quick workload',
  });

  test('an interval under the limit passes; .not fails quoting the verdict', () => {
    expect(run(at([0.5, 2.1], 1.3))).toCostAtMostPct(5);
    expect(() => expect(run(at([0.5, 2.1], 1.3))).not.toCostAtMostPct(5)).toThrow(
      'expected compliance, quick workload to cost more than 5%: overhead 1.3% (95% CI 0.5–2.1%) is within the 5% limit',
    );
  });

  test('an interval above the limit fails with the bench’s line', () => {
    expect(() => expect(run(at([6, 9], 7.5))).toCostAtMostPct(5)).toThrow(
      'compliance, quick workload: overhead 7.5% (95% CI 6.0–9.0%) is above the 5% limit',
    );
  });

  test('a straddling interval fails as the bench fails it, and passes where the run says inconclusive passes', () => {
    expect(() => expect(run(at([3, 7], 5.2))).toCostAtMostPct(5)).toThrow(
      /straddles the 5% limit.*\(inconclusive fails the run: run a longer workload/,
    );
    expect(run(at([3, 7], 5.2), 'pass')).toCostAtMostPct(5);
  });

  test('a bare measurement from results.json is judged with the bench’s defaults', () => {
    expect(() => expect(at([6, 9], 7.5)).toCostAtMostPct(5)).toThrow('the measurement: overhead 7.5%');
  });

  test('anything else throws saying what it takes, under .not too', () => {
    expect(() => expect({}).toCostAtMostPct(5)).toThrow(
      'toCostAtMostPct takes `(await bench.run()).measurement`, got an object',
    );
    expect(() => expect(null).not.toCostAtMostPct(5)).toThrow('toCostAtMostPct takes');
    expect(() => expect(run(at([6, 9], 7.5))).not.toCostAtMostPct('5' as never)).toThrow(
      'toCostAtMostPct takes the limit as a number of percent, got a string',
    );
  });
});
