// Plain JavaScript, as a DBA's test file is once Vitest has stripped its types: nothing here is type-checked, so the
// patterns below reach the matcher as written, and only the run-time check stands between a typo and a vacuous pass.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { logParsers } from '../plugins/logs/index.ts';
import { withClass } from './audit-records.ts';
import { auditbenchMatchers } from './matchers.ts';

expect.extend(auditbenchMatchers);

const bytes = readFileSync(new URL('../../fixtures/logs/server-audit-10.11.log', import.meta.url), 'utf8');
const records = withClass('server_audit', logParsers.server_audit(bytes).events);
const since = { format: 'server_audit', records, rejected: [], closedBy: 'admin', notClosedBecause: null };

describe('a pattern is checked when the test runs', () => {
  test('a misspelt key throws with the key it meant, under .not too (it used to be ignored)', () => {
    const misspelt =
      "toHaveLogged: 'usr' is not a key of a pattern: did you mean 'user'? A pattern compares user, host, operation, class, database, object, errorCode (each by equality) and statement (the statement's text)";
    expect(() => expect(since).not.toHaveLogged({ usr: 'admin', statement: /^CREATE/ })).toThrow(misspelt);
    expect(() => expect(since).toHaveLogged({ usr: 'root', statement: /^CREATE/ })).toThrow(misspelt);
  });

  test("a record's field that a pattern does not compare is named as such", () => {
    expect(() => expect(since).toHaveLogged({ queryText: 'CREATE' })).toThrow(
      "'queryText' is not a key of a pattern: did you mean 'statement'? (it matches the record's queryText)",
    );
    expect(() => expect(since).toHaveLogged({ connectionID: 4 })).toThrow(
      "'connectionID' is not a key of a pattern: 'connectionId' is a record field a pattern does not compare.",
    );
    expect(() => expect(since).toHaveLogged({ when: 'now' })).toThrow(
      "'when' is not a key of a pattern: A pattern compares",
    );
  });

  test('errorCode as text throws naming the key, the value and the type it takes (it never matched)', () => {
    expect(() => expect(since).not.toHaveLogged({ errorCode: '1045' })).toThrow(
      "toHaveLogged: the pattern's errorCode is '1045' (a string); errorCode takes a whole number or null: write errorCode: 1045",
    );
    expect(since).toHaveLogged({ user: 'nobody', errorCode: 1045 });
  });

  test('a value of the wrong type, an undefined value and an empty pattern throw', () => {
    expect(() => expect(since).toHaveLogged({ user: 7 })).toThrow(
      "toHaveLogged: the pattern's user is 7 (a number); user takes a string",
    );
    expect(() => expect(since).toHaveLogged({ statement: ['CREATE'] })).toThrow(
      `the pattern's statement is ["CREATE"] (an array); statement takes a string or a RegExp`,
    );
    expect(() => expect(since).toHaveLogged({ user: undefined, operation: 'CONNECT' })).toThrow(
      "toHaveLogged: the pattern's user is undefined: give a value, or leave the key out (is the variable it is read from set?)",
    );
    expect(() => expect(since).toHaveLogged({})).toThrow(
      'toHaveLogged got an empty pattern, which matches every record',
    );
    expect(() => expect(since).toHaveLogged({ statement: '' })).toThrow(
      'an empty statement matches every record',
    );
    expect(() => expect(since).toHaveLogged('CREATE')).toThrow(
      "toHaveLogged takes a pattern such as { user: 'admin', statement: /^CREATE/ }, got a string",
    );
  });

  test('a /g expression matches each record from its start (its lastIndex made the second reading miss)', () => {
    const created = /^CREATE TABLE/g;
    const one = {
      ...since,
      records: records.filter((r) => r.queryText.startsWith('CREATE TABLE')).slice(0, 1),
    };
    expect(one).toHaveLogged({ statement: created });
    expect(one).toHaveLogged({ statement: created });
    expect(() => expect(one).not.toHaveLogged({ statement: created })).toThrow('expected no record matching');
  });
});
