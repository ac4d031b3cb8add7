/**
 * A DBA's `plugin_load_add` / `plugin_load` line, entry by entry, as the server reads it: entries are separated by `;`
 * (and `:` outside Windows), each is `library` or `name=library` (`#` works as `=` too), and the server adds `.so`
 * when the library has no extension (`plugin_load_list()` in MariaDB's sql/sql_plugin.cc; a `,` separates nothing,
 * so `a,b` is one library). Other plugins production loads are kept when their library is in the server's plugin
 * directory; the audit plugin's own entry is left out, because auditbench installs it itself. And the plugin's own
 * load option (`server_audit=FORCE_PLUS_PERMANENT`) said as what it means in production. Pure.
 */

/** The libraries in the run's server's plugin directory (and a supplied plugin folder), by file name. */
export interface PluginLibraries {
  dir: string;
  names: ReadonlySet<string>;
}

/** The audit plugin a run measures: its name (`SERVER_AUDIT`) and library (`server_audit.so`). */
export interface OwnPlugin {
  name: string;
  soname: string | null;
}

export interface PluginEntry {
  /** As written: `server_audit` or `SERVER_AUDIT=server_audit.so`. */
  text: string;
  name: string | null;
  /** The file the server opens in its plugin directory. */
  file: string;
}

export type EntryFate = { keep: true; why: string } | { keep: false; why: string };

export function pluginEntries(value: string): PluginEntry[] {
  return value
    .split(/[;:]/)
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const at = text.search(/[=#]/);
      const name = at < 0 ? null : text.slice(0, at).trim();
      const library = (at < 0 ? text : text.slice(at + 1)).trim();
      return { text, name, file: /\.so$/i.test(library) ? library : `${library}.so` };
    });
}

const bare = (file: string) => file.replace(/\.so$/, '').toLowerCase();

/** Whether an entry loads the run's own audit plugin: its library, or its plugin name. */
export function isOwnEntry(entry: PluginEntry, own: OwnPlugin): boolean {
  const name = own.name.toLowerCase();
  return (
    (own.soname !== null && bare(entry.file) === bare(own.soname)) ||
    entry.name?.toLowerCase() === name ||
    bare(entry.file) === name
  );
}

export interface EntryContext {
  own: OwnPlugin | null;
  libraries: PluginLibraries | null;
  /** Why an entry is left out by the option rules (the feedback plugin reaches another host), or null. */
  ruleWhy(entry: PluginEntry): string | null;
  /** Whether the server's own --help lists an option of this name (a plugin built into it). */
  builtIn(name: string): boolean;
}

export function entryFate(entry: PluginEntry, context: EntryContext): EntryFate {
  if (context.own && isOwnEntry(entry, context.own)) {
    return {
      keep: false,
      why: `it loads ${context.own.name}, the plugin measured: auditbench installs it itself, to measure the server with it off and on`,
    };
  }
  const rule = context.ruleWhy(entry);
  if (rule) return { keep: false, why: rule };
  const { libraries } = context;
  if (!libraries) {
    return {
      keep: false,
      why: `no server plugin directory to look for ${entry.file} in (no local server binary)`,
    };
  }
  if (!libraries.names.has(entry.file)) {
    const comma = entry.file.includes(',')
      ? ` (the server separates entries with ';', so it reads '${entry.text}' as one library and loads none of it)`
      : '';
    const builtIn = context.builtIn(bare(entry.file))
      ? `; the server's --help lists --${bare(entry.file).replaceAll('_', '-')}: that plugin is built into it`
      : '';
    return {
      keep: false,
      why: `${entry.file} is not in the server's plugin directory ${libraries.dir}${comma}${builtIn}`,
    };
  }
  return {
    keep: true,
    why: `${entry.file} is in the server's plugin directory ${libraries.dir}: the run's server loads it too, as production does`,
  };
}

/**
 * What the plugin's own load option (`server_audit=FORCE_PLUS_PERMANENT`) means in production, for the finding that
 * goes with it: the run's server never has it, because auditbench installs and uninstalls the plugin itself. The
 * activation states are the server's (`--help`: "FORCE_PLUS_PERMANENT (like FORCE, but the plugin can not be
 * uninstalled)"; MySQL's manual, "Installing and Uninstalling Plugins").
 */
export function loadOptionMeaning(value: string, negated: boolean): string {
  const state = negated ? 'off' : value.trim().toLowerCase();
  switch (state) {
    case 'force_plus_permanent':
      return 'in production, under FORCE_PLUS_PERMANENT, the server does not start without the plugin and UNINSTALL PLUGIN fails while it runs; this run installs and uninstalls it, which production cannot';
    case 'force':
      return 'in production, under FORCE, the server does not start when the plugin fails to load';
    case 'off':
    case '0':
      return 'in production the plugin is loaded but disabled (OFF)';
    default:
      return 'in production the plugin is enabled at startup (ON: the server starts without it if it fails to load)';
  }
}
