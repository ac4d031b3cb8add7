import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { logParsers } from '../plugins/logs/index.ts';
import { type AuditLogBytes, type AuditRecords, withClass } from './audit-records.ts';
import { auditbenchMatchers } from './matchers.ts';

expect.extend(auditbenchMatchers);

// Input a matcher cannot judge throws, under `.not` as without it: a { pass: false } would be a pass under `.not`
// (issue 64). The records are server_audit's, recorded on MariaDB 10.11 (fixtures/logs/SOURCES.md).
const name = 'server-audit-10.11.log';
const bytes = readFileSync(new URL(`../../fixtures/logs/${name}`, import.meta.url));
const records = withClass('server_audit', logParsers.server_audit(bytes.toString('utf8')).events);
const since: AuditRecords = {
  format: 'server_audit',
  records,
  rejected: [],
  closedBy: 'admin',
  notClosedBecause: null,
};
const log: AuditLogBytes = { files: [{ name, bytes }], records, closedBy: 'admin', notClosedBecause: null };
const unclosed: AuditLogBytes = {
  ...log,
  closedBy: null,
  notClosedBecause: 'no closing marker was asked for',
};
const SECRET = 'S3cret-never-logged';

describe('toHoldText refuses a secret it cannot judge', () => {
  test('an empty text throws, with .not too: every log holds it', () => {
    const empty =
      'toHoldText got an empty text: every log holds it, so it proves nothing; is the variable the secret is read from set?';
    expect(() => expect(log).not.toHoldText('')).toThrow(empty);
    expect(() => expect(log).toHoldText('')).toThrow(empty);
  });

  test('undefined (an unset environment variable) and a number throw', () => {
    expect(() => expect(log).not.toHoldText(undefined as never)).toThrow(
      'toHoldText needs the secret as a string, got undefined: is the variable it is read from set?',
    );
    expect(() => expect(log).not.toHoldText(12345678 as never)).toThrow(
      'toHoldText needs the secret as a string, got a number',
    );
  });

  test('a text under 8 characters throws: it is in a log by chance', () => {
    expect(() => expect(log).not.toHoldText('pan-123')).toThrow(
      'toHoldText refuses a text of 7 character(s): under 8, a text is in a log by chance',
    );
    expect(log).not.toHoldText('pan-1234');
  });
});

describe('a matcher refuses the other reading: bytes for records, records for bytes', () => {
  test('.not.toHoldText on the records of since() throws: they leave out rejected lines and rotated files', () => {
    expect(() => expect(since).not.toHoldText(SECRET)).toThrow(
      'toHoldText reads `await audit.bytes({ closedBy })`, got the records of audit.since()',
    );
  });

  test('.not.toHaveLogged on audit.bytes() throws, though the bytes carry records too', () => {
    expect(() => expect(log).not.toHaveLogged({ statement: 'never sent' })).toThrow(
      'toHaveLogged reads the records of `await audit.since(mark, { closedBy })`, got `await audit.bytes()`',
    );
    expect(() => expect([]).not.toHaveLogged({ statement: 'never sent' })).toThrow('got an array');
  });
});

describe('a .not needs a closed span', () => {
  test('.not.toHoldText on bytes no marker closed throws, naming audit.bytes({ closedBy })', () => {
    expect(() => expect(unclosed).not.toHoldText(SECRET)).toThrow(
      'cannot show that no log byte holds "S3…" (19 characters): the bytes were not closed (no closing marker was asked for), so a record still on its way to the log is not in them; read them with audit.bytes({ closedBy: anAuditedAccount })',
    );
    // A finding needs no closure: the text is there.
    expect(unclosed).toHoldText('CREATE DATABASE shop');
  });

  test('a closedBy left out (not null) is unclosed too', () => {
    const { closedBy: _, notClosedBecause: __, ...bare } = log;
    expect(() => expect(bare).not.toHoldText(SECRET)).toThrow('the bytes were not closed (no closedBy)');
    const { closedBy: ___, ...bareRecords } = since;
    expect(() => expect(bareRecords).not.toHaveLogged({ statement: 'never sent' })).toThrow(
      'the records were not closed',
    );
  });

  test('.not.toHoldText on no log file throws', () => {
    expect(() => expect({ ...log, files: [] }).not.toHoldText(SECRET)).toThrow(
      'cannot show that no log byte holds "S3…" (19 characters): audit.bytes() read no log file',
    );
  });
});

describe("server_audit's connection events of a filtered account", () => {
  test('a .not naming the account fails saying why its connection records are there', () => {
    expect(() => expect(since).not.toHaveLogged({ user: 'nobody' })).toThrow(
      "server_audit logs the connection events (CONNECT, FAILED_CONNECT, DISCONNECT, CHANGEUSER) of every account: server_audit_incl_users and server_audit_excl_users filter only its QUERY and TABLE records. To ask that nobody's statements are not logged, add class: 'QUERY' (or a statement) to the pattern",
    );
    expect(since).not.toHaveLogged({ user: 'nobody', class: 'QUERY' });
  });

  test('the note is left out where no connection record matched', () => {
    expect(() => expect(since).not.toHaveLogged({ user: 'root', class: 'QUERY' })).toThrow(
      /^expected no record matching \{ user: "root", class: "QUERY" \}, found \d+ of \d+ record\(s\) since the mark:\n(?:(?!server_audit logs)[\s\S])*$/,
    );
  });
});
