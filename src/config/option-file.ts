/**
 * Reads a DBA's option file fragment (my.cnf syntax) into settings: the [mysqld], [mariadb] and [server] groups (and
 * their versioned forms such as [mariadb-10.11]); other groups are ignored, as the server ignores them. Pure: the
 * caller reads the file.
 */
export interface OptionFileSettings {
  /** Option name (as written, dashes kept) → value; a bare flag reads as 'ON'. */
  options: Record<string, string>;
  /** Lines the server would also skip or that auditbench leaves alone, with why, for the results. */
  ignored: string[];
}

const SERVER_GROUP = /^(mysqld|mariadb|mariadbd|server)(-[\d.]+)?$/i;

export class OptionFileError extends Error {}

/** The value as the option file reader sees it: surrounding quotes removed, escapes resolved, `#` comments cut. */
function unquote(raw: string, where: string): string {
  const text = raw.trim();
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    let out = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\\' && i + 1 < text.length) {
        const next = text[++i] as string;
        out += { n: '\n', t: '\t', s: ' ', '\\': '\\' }[next] ?? next;
      } else if (c === quote) {
        const rest = text.slice(i + 1).trim();
        if (rest !== '' && !rest.startsWith('#'))
          throw new OptionFileError(`${where}: text after the closing quote`);
        return out;
      } else out += c;
    }
    throw new OptionFileError(`${where}: the quote ${quote} is never closed`);
  }
  const hash = text.search(/\s#/);
  return (hash >= 0 ? text.slice(0, hash) : text).trim();
}

export function parseOptionFile(text: string, fileName: string): OptionFileSettings {
  const options: Record<string, string> = {};
  const ignored: string[] = [];
  let group: string | null = null;
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    const where = `${fileName}:${index + 1}`;
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('!')) {
      ignored.push(
        `${where}: ${line.split(/\s/)[0]} is not followed (give the included file's settings directly)`,
      );
      continue;
    }
    if (line.startsWith('[')) {
      const match = /^\[\s*([^\]\s]+)\s*\]\s*(#.*)?$/.exec(line);
      if (!match?.[1])
        throw new OptionFileError(`${where}: a group header looks like [mysqld]; got '${line}'`);
      group = match[1];
      continue;
    }
    if (group === null) {
      throw new OptionFileError(`${where}: '${line}' comes before any [group] header; start with [mysqld]`);
    }
    if (!SERVER_GROUP.test(group)) continue;
    const eq = line.indexOf('=');
    const name = (eq < 0 ? line : line.slice(0, eq)).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new OptionFileError(`${where}: '${name}' is not an option name (letters, digits, - and _)`);
    }
    options[name] = eq < 0 ? 'ON' : unquote(line.slice(eq + 1), where);
  }
  return { options, ignored };
}
