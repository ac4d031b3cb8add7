import { describe, expect, test } from 'vitest';
import { grantStatement } from './account-grants.ts';

const dba = "'dba'@'%'";

describe('server.account grants', () => {
  test('WITH GRANT OPTION goes after TO, where GRANT takes it (before, it came before TO: a syntax error)', () => {
    expect(grantStatement('ALL PRIVILEGES ON *.* WITH GRANT OPTION', dba)).toBe(
      "GRANT ALL PRIVILEGES ON *.* TO 'dba'@'%' WITH GRANT OPTION",
    );
    expect(grantStatement('select on shop.*  with  grant\toption ', dba)).toBe(
      "GRANT select on shop.* TO 'dba'@'%' WITH GRANT OPTION",
    );
  });

  test('a grant without the option is sent as before', () => {
    expect(grantStatement('CREATE, DROP ON shop.*', dba)).toBe("GRANT CREATE, DROP ON shop.* TO 'dba'@'%'");
  });

  test.for([
    ['ALL PRIVILEGES', 'has no ON clause'],
    ['SELECT ON shop.* TO bob', 'names its own grantee (TO …): the account is the one being created'],
    ['SELECT ON shop.*; DROP DATABASE shop', 'holds more than one statement'],
    [
      'USAGE ON *.* WITH MAX_QUERIES_PER_HOUR 10',
      'has a WITH clause other than a trailing WITH GRANT OPTION',
    ],
    ['WITH GRANT OPTION', 'has no ON clause'],
  ])('%s is refused: %s', ([grant, why]) => {
    expect(() => grantStatement(grant, dba)).toThrow(
      `server.account: grant ${JSON.stringify(grant)} ${why}; write '<privileges> ON <what>', optionally followed by WITH GRANT OPTION`,
    );
  });

  test('a grant that is not a string is refused', () => {
    expect(() => grantStatement(undefined, dba)).toThrow("a grant is a string such as 'SELECT ON shop.*'");
  });
});
