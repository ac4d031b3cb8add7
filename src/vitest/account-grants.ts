// What `server.account(name, grants)` takes as a grant: '<privileges> ON <what>', with an optional trailing
// 'WITH GRANT OPTION'. MariaDB's GRANT puts the account between the two (GRANT … ON … TO account WITH GRANT OPTION),
// so the option is moved after TO; anything else that would change the statement's shape is refused.

const GRANT_OPTION = /\s+WITH\s+GRANT\s+OPTION\s*$/i;
const SHAPE = /^\s*\S.*?\s+ON\s+\S.*$/is;

/** One GRANT statement for the account, from a grant as a test gives it; throws naming the grant when it is not one. */
export function grantStatement(grant: unknown, account: string): string {
  if (typeof grant !== 'string')
    throw new TypeError(
      `server.account: a grant is a string such as 'SELECT ON shop.*', got ${typeof grant}`,
    );
  const withOption = GRANT_OPTION.test(grant);
  const body = grant.replace(GRANT_OPTION, '').trim();
  const refuse = (why: string) =>
    new Error(
      `server.account: grant ${JSON.stringify(grant)} ${why}; write '<privileges> ON <what>', optionally followed by WITH GRANT OPTION (e.g. 'ALL PRIVILEGES ON *.* WITH GRANT OPTION')`,
    );
  if (!SHAPE.test(body)) throw refuse('has no ON clause');
  if (/[;\n\r]/.test(body)) throw refuse('holds more than one statement');
  if (/\sTO\s/i.test(` ${body} `))
    throw refuse('names its own grantee (TO …): the account is the one being created');
  if (/\sWITH\s/i.test(` ${body} `))
    throw refuse('has a WITH clause other than a trailing WITH GRANT OPTION');
  return `GRANT ${body} TO ${account}${withOption ? ' WITH GRANT OPTION' : ''}`;
}
