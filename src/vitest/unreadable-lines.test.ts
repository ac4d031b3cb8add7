import { expect, test } from 'vitest';
import { parseServerAuditLog } from '../plugins/logs/server-audit-log.ts';
import { type AuditRecords, withClass } from './audit-records.ts';
import { judgeLogged } from './matchers.ts';

// An account named `ops,admin` makes its records unreadable (the fifth field is not digits): since() keeps them in
// `rejected`, and the matchers show them rather than judge without them.
const OPS = "20261207 13:00:00,vm,ops,admin,localhost,12,40,QUERY,shop,'DROP TABLE shop.cards',0";
const log = parseServerAuditLog(
  "20261207 13:00:00,vm,admin,localhost,10,41,QUERY,shop,'CREATE TABLE shop.cards (a INT)',0\n",
);
const records: AuditRecords = {
  format: 'server_audit',
  records: withClass('server_audit', log.events),
  closedBy: 'admin',
  notClosedBecause: null,
  rejected: [
    {
      file: 'server_audit.log',
      line: 7,
      text: OPS,
      reason: 'not a server_audit record: expected timestamp,host,user,host,id,id,OPERATION,db,',
    },
  ],
};

test('.not over a span with an unreadable line fails, quoting it', () => {
  const result = judgeLogged(records, { statement: /^DROP TABLE/ }, true);
  expect(result.pass).toBe(true);
  expect(result.message()).toBe(
    `cannot show that no record matches { statement: /^DROP TABLE/ }: none of 1 record(s) since the mark does, but the span holds lines that are no record a reader can trust, and any of them may be one:
  server_audit.log:7: ${JSON.stringify(OPS)}
    (not a server_audit record: expected timestamp,host,user,host,id,id,OPERATION,db,)`,
  );
});

test('a positive matcher that finds nothing shows the unreadable lines beside the records', () => {
  const result = judgeLogged(records, { user: 'ops,admin' }, false);
  expect(result.pass).toBe(false);
  expect(result.message()).toMatch(
    /none of 1 record\(s\) since the mark \(closed by admin's marker\) does:\n {2}QUERY/,
  );
  expect(result.message()).toContain(`\nand 1 line(s) of the span that are no record a reader can trust`);
  expect(result.message()).toContain(JSON.stringify(OPS));
});

test('a record found is found; the unreadable lines show beside it when .not fails', () => {
  expect(judgeLogged(records, { statement: /^CREATE TABLE/ }, false).pass).toBe(true);
  const result = judgeLogged(records, { statement: /^CREATE TABLE/ }, true);
  expect(result.message()).toMatch(
    /^expected no record matching .*found 1 of 1[\s\S]*and 1 line\(s\) of the span/,
  );
});

test('without unreadable lines, .not passes as before', () => {
  expect(judgeLogged({ ...records, rejected: [] }, { statement: /^DROP TABLE/ }, true).pass).toBe(false);
});
