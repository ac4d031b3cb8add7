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
  for (const [name, value] of options) {
    // The last guard: a line break in a name or value would add a line of its own (option files are checked first).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    if (/[\u0000-\u001f\u007f]/.test(`${name}${value ?? ''}`) || !/^[A-Za-z0-9_-]+$/.test(name)) {
      throw new Error(
        `my.cnf option ${JSON.stringify(name)} or its value holds a control character or is not a name`,
      );
    }
    lines.push(value === null ? name : `${name}=${value}`);
  }
  return `${lines.join('\n')}\n`;
}
