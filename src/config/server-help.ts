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
}

/** How the server reads an option name: case and `-`/`_` do not matter. */
export function normaliseOptionName(name: string): string {
  return name.trim().toLowerCase().replaceAll('-', '_');
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
  return { names, textValued, defaults };
}
