/** Options of the [mysqld] section, in order; null is a bare flag such as `skip-name-resolve`. */
export type ServerOptions = Map<string, string | null>;

// my.cnf treats - and _ alike in option names; normalise so an edit replaces rather than duplicates.
export function optionKey(name: string): string {
  return name.trim().replaceAll('-', '_');
}

export function applyEdit(
  options: ServerOptions,
  edit: { set?: Record<string, string | null>; unset?: string[] },
): ServerOptions {
  const next = new Map(options);
  for (const name of edit.unset ?? []) next.delete(optionKey(name));
  for (const [name, value] of Object.entries(edit.set ?? {})) next.set(optionKey(name), value);
  return next;
}

export function renderMyCnf(options: ServerOptions): string {
  const lines = ['# written by auditbench; every run gets its own', '[mysqld]'];
  for (const [name, value] of options) lines.push(value === null ? name : `${name}=${value}`);
  return `${lines.join('\n')}\n`;
}

/** The [mysqld] options of an option file (`name=value`, or a bare flag); comments and other groups are ignored. */
export function parseMysqldGroup(text: string): Record<string, string | null> {
  const options: Record<string, string | null> = {};
  let group = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) group = header[1]?.trim() ?? '';
    else if (group === 'mysqld') {
      const eq = line.indexOf('=');
      if (eq < 0) options[line] = null;
      else options[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    }
  }
  return options;
}
