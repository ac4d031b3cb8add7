import type { LeftOutOption, OutsideOption } from './outside-options.ts';
import { normaliseOptionName, type ServerGroups } from './server-help.ts';

/**
 * Reads a DBA's option file fragment (my.cnf syntax) into settings: every group the server reads, as the server's own
 * `--help --verbose` lists them ("The following groups are read: mysqld server mysqld-10.11 mariadb mariadb-10.11
 * mariadbd mariadbd-10.11 client-server galera" on MariaDB 10.11). A group it does not read (`[client]`,
 * `[mysqldump]`, another version's `[mysqld-8.0]`) is left out by name, with why: production's server never sees its
 * lines either. Pure: the caller reads the file and the binary's help.
 */
export interface OptionFileSettings {
  /**
   * Option name (as written, dashes kept) → value; a bare flag reads as 'ON'. The last line of a name wins, as in the
   * server, but for `plugin_load_add`, whose lines the server adds up (joined here with `;`).
   */
  options: Record<string, string>;
  /** Every option line of a group the server reads, in order, with where: `prod.cnf:12 [galera]`. */
  lines: OutsideOption[];
  /** The file's groups: those the server reads, and those left out with why; and the server's own list. */
  groups: { read: string[]; leftOut: LeftOutOption[]; serverReads: ServerGroups };
  /** Lines auditbench does not follow (`!include`), with why, for the results. */
  ignored: string[];
}

/**
 * The groups MariaDB 10.11's mariadbd reads (`fixtures/server-help/mariadb-10.11.txt`, line 10), for when no server
 * binary is at hand to ask: the version auditbench's own servers run.
 */
export const RECORDED_GROUPS: ServerGroups = {
  names: [
    'mysqld',
    'server',
    'mysqld-10.11',
    'mariadb',
    'mariadb-10.11',
    'mariadbd',
    'mariadbd-10.11',
    'client-server',
    'galera',
  ],
  from: "MariaDB 10.11's mariadbd --help --verbose, as recorded (no server binary here to ask)",
};

/** Options the server adds up over lines rather than takes the last of. */
const ADDS_UP = new Set(['plugin_load_add']);

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

/** The group a header names, checked: the letters option file groups are written in, never taken as a pattern. */
function groupOf(line: string, where: string): string {
  const match = /^\[\s*([^\]\s]+)\s*\]\s*(#.*)?$/.exec(line);
  if (!match?.[1]) throw new OptionFileError(`${where}: a group header looks like [mysqld]; got '${line}'`);
  if (!/^[A-Za-z0-9_.-]+$/.test(match[1])) {
    throw new OptionFileError(
      `${where}: the group name ${JSON.stringify(match[1])} holds characters other than letters, digits, . - and _: write it as the server's groups are written, e.g. [mysqld]`,
    );
  }
  return match[1].toLowerCase();
}

/** Why a group the server does not read is left out: the server's own list, and who said so. */
const notReadWhy = (groups: ServerGroups): string =>
  `the server reads only the groups ${groups.names.join(', ')} (${groups.from}), so production's server never reads these lines either`;

/** The file's options, by the line they are on; the server's groups decide which lines count. */
export function parseOptionFile(
  text: string,
  fileName: string,
  serverReads: ServerGroups = RECORDED_GROUPS,
): OptionFileSettings {
  const out: OptionFileSettings = {
    options: {},
    lines: [],
    groups: { read: [], leftOut: [], serverReads },
    ignored: [],
  };
  const reads = new Set(serverReads.names);
  /** Lines of each group left out, by group; counted for its one line. */
  const skipped = new Map<string, { source: string; lines: number }>();
  let group: string | null = null;
  for (const [index, rawLine] of text.split(/\r?\n/).entries()) {
    const where = `${fileName}:${index + 1}`;
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('!')) {
      out.ignored.push(
        `${where}: ${line.split(/\s/)[0]} is not followed (give the included file's settings directly)`,
      );
      continue;
    }
    if (line.startsWith('[')) {
      group = groupOf(line, where);
      const list = reads.has(group) ? out.groups.read : null;
      if (list && !list.includes(group)) list.push(group);
      if (!list && !skipped.has(group)) skipped.set(group, { source: where, lines: 0 });
      continue;
    }
    if (group === null) {
      throw new OptionFileError(`${where}: '${line}' comes before any [group] header; start with [mysqld]`);
    }
    const left = skipped.get(group);
    if (left) {
      left.lines++;
      continue;
    }
    readOption(out, line, where, group);
  }
  // An empty group leaves nothing out (Debian's 50-server.cnf has an empty [embedded]).
  for (const [name, { source, lines }] of skipped) {
    if (lines === 0) continue;
    out.groups.leftOut.push({
      source,
      name: `[${name}] (${lines} line${lines === 1 ? '' : 's'})`,
      why: notReadWhy(serverReads),
    });
  }
  return out;
}

/** One `name = value` line of a group the server reads; an option the server adds up is joined with `;`. */
function readOption(out: OptionFileSettings, line: string, where: string, group: string): void {
  const eq = line.indexOf('=');
  const name = (eq < 0 ? line : line.slice(0, eq)).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    throw new OptionFileError(`${where}: '${name}' is not an option name (letters, digits, - and _)`);
  }
  const value = eq < 0 ? 'ON' : unquote(line.slice(eq + 1), where);
  const plain = normaliseOptionName(name).replace(/^loose_/, '');
  const earlier = ADDS_UP.has(plain)
    ? Object.keys(out.options).find((k) => normaliseOptionName(k).replace(/^loose_/, '') === plain)
    : undefined;
  const key = earlier ?? name;
  out.options[key] = earlier !== undefined && value !== '' ? `${out.options[key]};${value}` : value;
  out.lines.push({ source: `${where} [${group}]`, name, value });
}
