/**
 * The option names a server binary knows, read from its `--no-defaults --verbose --help` (MariaDB and MySQL print the
 * same two parts: the option list, `  --datadir=name  …`, then the variables table with each value). Pure: the
 * caller runs the binary.
 */
export interface OptionCatalogue {
  /** Every option name, normalised (lower case, `_` for `-`). */
  names: ReadonlySet<string>;
  /** The options that take a text value (`--datadir=name`), the ones a path can hide in. */
  textValued: ReadonlySet<string>;
  /** Each variable's value as the binary prints it with no option file read (the variables table). */
  defaults: ReadonlyMap<string, string>;
  /**
   * The option file groups the binary reads ("The following groups are read: mysqld server …"), lower case, and the
   * binary and version that said so; null when the help has no such line.
   */
  groups: ServerGroups | null;
}

/** The option file groups a server reads, and where that list comes from. */
export interface ServerGroups {
  names: readonly string[];
  /** `mariadbd 10.11.19-MariaDB-0+deb12u1's --help --verbose`. */
  from: string;
}

/** How the server reads an option name: case and `-`/`_` do not matter. */
export function normaliseOptionName(name: string): string {
  return name.trim().toLowerCase().replaceAll('-', '_');
}

/** The groups line of the help, and the program and version from its first line. */
function groupsOf(lines: readonly string[]): ServerGroups | null {
  const line = lines.find((l) => l.startsWith('The following groups are read:'));
  if (line === undefined) return null;
  const names = line
    .slice('The following groups are read:'.length)
    .trim()
    .split(/\s+/)
    .filter((name) => name !== '')
    .map((name) => name.toLowerCase());
  const version = /^(\S+)\s+Ver\s+(\S+)/.exec(lines[0] ?? '');
  const program = version ? `${version[1]} ${version[2]}` : 'the server';
  return names.length > 0 ? { names, from: `${program}'s --help --verbose` } : null;
}

const OPTION_LINE = /^ {2}(?:-\S, )?--([a-z0-9][a-z0-9_-]*)(\[?=(name|#)\]?)?/i;

export function parseServerHelp(text: string): OptionCatalogue {
  const names = new Set<string>();
  const textValued = new Set<string>();
  const defaults = new Map<string, string>();
  const lines = text.split('\n');
  const table = lines.findIndex((line) => line.startsWith('Variables ('));
  for (const line of table < 0 ? lines : lines.slice(0, table)) {
    const match = OPTION_LINE.exec(line);
    if (!match?.[1]) continue;
    const name = normaliseOptionName(match[1]);
    names.add(name);
    if (match[3] === 'name') textValued.add(name);
  }
  if (table >= 0) {
    // The table's header is two lines, then a dashed rule; each row is `name   value`.
    for (const line of lines.slice(table + 3)) {
      const row = /^(\S+)\s+(.*)$/.exec(line);
      if (!row?.[1]) continue;
      const name = normaliseOptionName(row[1]);
      names.add(name);
      defaults.set(name, (row[2] ?? '').trim());
    }
  }
  return { names, textValued, defaults, groups: groupsOf(lines) };
}
