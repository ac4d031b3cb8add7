import { RULES, type Rule, ruleFor, WHY } from './outside-option-rules.ts';
import {
  entryFate,
  loadOptionMeaning,
  type OwnPlugin,
  type PluginEntry,
  type PluginLibraries,
  pluginEntries,
} from './plugin-load.ts';
import { normaliseOptionName, type OptionCatalogue } from './server-help.ts';

export { classifiedNames } from './outside-option-rules.ts';

/**
 * What auditbench does with a server option that comes from outside (a DBA's option file, a run's `startupOptions`,
 * the `*.cnf` beside a supplied plugin): the harness owns its server's place, network and accounts, so a production
 * file can never aim the throwaway server at the live one. Pure: the caller reads the files and the binary's help.
 *
 * - left out, with a line: the place (datadir, socket, …), the network, the OS user, what reaches another host;
 * - moved into the run's data directory, file name kept: logs and binary logs given an absolute path or one that
 *   climbs out with `..`, so the feature is still measured (a path inside the data directory stays);
 * - refused before any server starts: security switched off, an absolute path left in a kept value, a control
 *   character, a name the server would read as several options;
 * - split, entry by entry: `plugin_load_add` / `plugin_load` (src/config/plugin-load.ts): other plugins kept when
 *   their library is in the server's plugin directory, the measured plugin's own entry left out;
 * - kept: everything else is the DBA's to measure.
 */

export interface OutsideOption {
  /** Where it was read: `prod.cnf:12`, `auditbench.config.ts: runs[0].startupOptions`, `offsets.cnf`. */
  source: string;
  name: string;
  value: string;
}

export interface LeftOutOption {
  source: string;
  name: string;
  why: string;
  /** What the option means in production, which this run does not reproduce (`server_audit=FORCE_PLUS_PERMANENT`). */
  finding?: string;
}

/** An option kept, with why: the DBA's to measure, or a plugin whose library the server has. */
export interface KeptOption {
  source: string;
  name: string;
  value: string;
  why: string;
}

export interface MovedOption {
  source: string;
  name: string;
  /** What production writes. */
  from: string;
  /** What this run writes, relative to its data directory; '' when the option is left to its default there. */
  to: string;
}

export interface ClassifiedOptions {
  /** Option name as written → value, moved values rewritten. */
  kept: Record<string, string>;
  /** The same options, each with why (a moved log is in `moved`). */
  keptWhy: KeptOption[];
  leftOut: LeftOutOption[];
  moved: MovedOption[];
  /** One line each; the caller refuses the configuration on the first. */
  refusals: string[];
}

export interface ClassifyContext {
  /** The server binary's options; null when no binary is at hand (names are then matched against the rules only). */
  catalogue: OptionCatalogue | null;
  /** The plugin's own log path options (`server_audit_file_path`), moved like the server's logs. */
  logPathOptions?: readonly string[];
  /** Options auditbench drives itself for this plugin (its logging switch, its name), with why. */
  managed?: ReadonlyMap<string, string>;
  /** The plugin measured, whose `plugin_load_add` entry and load option are left out. */
  ownPlugin?: OwnPlugin;
  /** The run's server's plugin libraries; null or absent when there is no local server to look in. */
  libraries?: PluginLibraries | null;
}

/** Names the server expands a prefix to: it takes a unique abbreviation as the option it abbreviates. */
type Resolved = { name: string; negated: boolean } | { ambiguous: string[] };

const PREFIXES = [
  ['skip_', true],
  ['disable_', true],
  ['enable_', false],
  ['maximum_', false],
] as const;

/** Full names a short one may abbreviate, without a binary: the ones with a rule, and common kept names. */
const KNOWN_KEPT = ['general_log', 'slow_query_log', 'log_slow_query', 'ssl', 'log_warnings'];

function resolveName(raw: string, context: ClassifyContext): Resolved {
  let name = normaliseOptionName(raw);
  if (name.startsWith('loose_')) name = name.slice('loose_'.length);
  const extra = [...(context.logPathOptions ?? []), ...(context.managed?.keys() ?? [])].map(
    normaliseOptionName,
  );
  const known = (n: string) =>
    context.catalogue?.names.has(n) || RULES.has(n) || extra.includes(n) || KNOWN_KEPT.includes(n);
  if (known(name)) return { name, negated: false };
  for (const [prefix, negated] of PREFIXES) {
    const rest = name.slice(prefix.length);
    if (name.startsWith(prefix) && known(rest)) return { name: rest, negated };
  }
  const pool = context.catalogue
    ? [...context.catalogue.names, ...extra]
    : [...RULES.keys(), ...extra, ...KNOWN_KEPT];
  const expand = (stem: string) => [...new Set(pool.filter((full) => full.startsWith(stem)))].sort();
  for (const [prefix, negated] of [['', false], ...PREFIXES] as const) {
    if (!name.startsWith(prefix)) continue;
    const candidates = expand(name.slice(prefix.length));
    if (candidates.length === 1) return { name: candidates[0] as string, negated };
    if (candidates.length > 1) return { ambiguous: candidates };
  }
  return { name, negated: false };
}

const TRUE_WORDS = new Set(['', 'on', '1', 'true', 'yes', 'force', 'force_plus_permanent']);
const switchedOn = (value: string, negated: boolean) =>
  TRUE_WORDS.has(value.trim().toLowerCase()) !== negated;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;
/** An absolute path anywhere in a value: at its start or after a separator (`FILE:/etc/x`, `a,/b`). */
const ABSOLUTE = /(^|[\s=,:;'"(])(\/[^\s,:;'")]*)/;

/** The character as a reader can name it: U+000A. */
const codePoint = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A path the server would not resolve inside its data directory: absolute, or climbing out with `..`. */
const leavesDatadir = (value: string): boolean =>
  value.trim().startsWith('/') || value.split('/').some((part) => part === '..');

const baseName = (value: string): string => {
  const parts = value.split('/');
  const last = parts[parts.length - 1] ?? '';
  return last === '.' || last === '..' ? '' : last;
};

/** Why an option from outside is kept, unless it has a reason of its own (a plugin library found). */
export const KEPT_WHY = "the DBA's to measure: the run's server starts with it, as production does";

export function classifyOutsideOptions(
  options: readonly OutsideOption[],
  context: ClassifyContext,
): ClassifiedOptions {
  const out: ClassifiedOptions = { kept: {}, keptWhy: [], leftOut: [], moved: [], refusals: [] };
  const logPaths = new Set((context.logPathOptions ?? []).map(normaliseOptionName));
  for (const option of options) {
    const { source, name, value } = option;
    const bad = CONTROL.exec(value) ?? CONTROL.exec(name);
    if (bad) {
      out.refusals.push(
        `${source}: ${name} holds the control character ${codePoint(bad[0])}: write the option on one line, without control characters`,
      );
      continue;
    }
    const resolved = resolveName(name, context);
    if ('ambiguous' in resolved) {
      out.refusals.push(
        `${source}: ${name} abbreviates several server options (${resolved.ambiguous.slice(0, 5).join(', ')}): write the option's full name`,
      );
      continue;
    }
    const managed = context.managed?.get(resolved.name);
    if (managed) {
      const own = context.ownPlugin && normaliseOptionName(context.ownPlugin.name) === resolved.name;
      const finding = own ? loadOptionMeaning(value, resolved.negated) : undefined;
      out.leftOut.push({ source, name, why: managed, ...(finding && { finding }) });
      continue;
    }
    const rule: Rule | null = logPaths.has(resolved.name) ? { kind: 'move-file' } : ruleFor(resolved.name);
    const written = normaliseOptionName(name).replace(/^loose_/, '');
    const shown = resolved.name === written ? name : `${name} (${resolved.name})`;
    applyRule(out, { ...option, shown, negated: resolved.negated }, rule, context);
  }
  return out;
}

type Named = OutsideOption & { shown: string; negated: boolean };

function applyRule(out: ClassifiedOptions, option: Named, rule: Rule | null, context: ClassifyContext): void {
  const { source, name, value, shown } = option;
  if (rule?.kind === 'leave') {
    out.leftOut.push({ source, name: shown, why: WHY[rule.why] });
  } else if (rule?.kind === 'plugin-list') {
    splitPluginList(out, option, context);
  } else if (rule?.kind === 'refuse-on' || rule?.kind === 'refuse-off') {
    const on = switchedOn(value, option.negated);
    if ((rule.kind === 'refuse-on') === on) {
      out.refusals.push(
        `${source}: ${shown}${rule.kind === 'refuse-off' ? ' switched off' : ''} ${rule.why}: remove it; auditbench measures a server with its protections on`,
      );
    } else out.leftOut.push({ source, name: shown, why: 'it is the server default already' });
  } else if (rule?.kind === 'move-dir') {
    out.moved.push({ source, name: shown, from: value, to: '' });
  } else if (rule?.kind === 'move-file' && leavesDatadir(value)) {
    const to = baseName(value);
    out.moved.push({ source, name: shown, from: value, to });
    if (to !== '') out.kept[name] = to;
  } else {
    const path = rule?.kind === 'move-file' ? null : ABSOLUTE.exec(value);
    if (path?.[2] && path[2].length > 1) {
      out.refusals.push(
        `${source}: ${shown}=${value} names ${path[2]}, a path outside the run: auditbench moves only log files into the run's folder; remove the option or give a path relative to the data directory`,
      );
    } else {
      out.kept[name] = value;
      out.keptWhy.push({ source, name: shown, value, why: KEPT_WHY });
    }
  }
}

/**
 * `plugin_load_add` / `plugin_load`, entry by entry: the kept ones go to the run's `plugin_load_add` (the run's server
 * loads no list of its own that a `plugin_load` would reset), each left-out one gets its line.
 */
function splitPluginList(out: ClassifiedOptions, option: Named, context: ClassifyContext): void {
  const ruleWhy = (entry: PluginEntry): string | null => {
    const rule = ruleFor(normaliseOptionName(entry.name ?? entry.file.replace(/\.so$/i, '')));
    return rule?.kind === 'leave' ? WHY[rule.why] : null;
  };
  const builtIn = (name: string) => context.catalogue?.names.has(normaliseOptionName(name)) ?? false;
  const entryContext = {
    own: context.ownPlugin ?? null,
    libraries: context.libraries ?? null,
    ruleWhy,
    builtIn,
  };
  for (const entry of pluginEntries(option.value)) {
    const fate = entryFate(entry, entryContext);
    if (!fate.keep) {
      out.leftOut.push({ source: option.source, name: `${option.shown} (${entry.text})`, why: fate.why });
      continue;
    }
    const key = Object.keys(out.kept).find((k) => normaliseOptionName(k) === 'plugin_load_add');
    out.kept[key ?? 'plugin_load_add'] = key ? `${out.kept[key]};${entry.text}` : entry.text;
    out.keptWhy.push({ source: option.source, name: option.shown, value: entry.text, why: fate.why });
  }
}

/** The line a moved option gets: what production writes, and what this run writes instead. */
export function movedLine(option: MovedOption): string {
  const to = option.to === '' ? 'keeps them in its own data directory' : `writes <run>/${option.to}`;
  return `${option.source}: production writes ${option.from} (${option.name}); this run ${to}`;
}

/** The line a left-out option gets, with what it means in production when that differs from the run. */
export function leftOutLine(option: LeftOutOption): string {
  const finding = option.finding ? `; finding: ${option.finding}` : '';
  return `${option.source}: ${option.name} is left out: ${option.why}${finding}`;
}

/** The line a kept option gets. */
export function keptLine(option: KeptOption): string {
  return `${option.source}: ${option.name}=${option.value} is kept: ${option.why}`;
}
