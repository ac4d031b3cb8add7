// Whether the server can switch a changed startup option while it runs, and so which design measures base beside
// head: pure, unit tested in option-classes.test.ts against rows recorded from MariaDB 10.11.

import type { ComparisonDesign } from '../bench/subject.ts';
import { normaliseName, sqlLiteralOf } from '../config/settings.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { SystemVariable, SystemVariables } from '../servers/system-variables.ts';

/** A startup option (my.cnf, the DBA's option file) whose value differs; null where that side does not set it. */
export interface ChangedOption {
  /** Normalised: underscores, lowercase, no loose- prefix. */
  name: string;
  base: string | null;
  head: string | null;
}

/** A my.cnf value as the server reads it: cnfValue's double quotes and escapes undone. */
export function plainCnfValue(value: string): string {
  const quoted = /^"(.*)"$/s.exec(value);
  return quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : value;
}

// my.cnf names carry loose- (src/config/settings.ts, toCnfOptions); the DBA may write them with or without it.
const byName = (options: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(options).map(([k, v]) => [normaliseName(k).replace(/^loose_/, ''), plainCnfValue(v)]),
  );

/** The startup options whose parsed values differ between base and head, by name. */
export function changedOptions(base: Record<string, string>, head: Record<string, string>): ChangedOption[] {
  const [b, h] = [byName(base), byName(head)];
  return [...new Set([...Object.keys(b), ...Object.keys(h)])]
    .sort()
    .filter((name) => b[name] !== h[name])
    .map((name) => ({ name, base: b[name] ?? null, head: h[name] ?? null }));
}

const MULTIPLIERS: Record<string, bigint> = { k: 1n, m: 2n, g: 3n, t: 4n, p: 5n, e: 6n };

/**
 * The value as SET GLOBAL takes it for the variable's type, or why it cannot: numbers must be bare (a quoted '5' is
 * "Incorrect argument type" on MariaDB 10.11, and SET knows no 1M), so option-file suffixes are multiplied out.
 * null: the side does not set the option, so its arm puts the server's default back.
 */
export function setGlobalLiteral(
  variable: SystemVariable,
  value: string | null,
): string | { problem: string } {
  if (value === null) return 'DEFAULT';
  const text = value.trim();
  if (variable.type === 'BOOLEAN') {
    if (/^(1|on|true|yes)$/i.test(text)) return 'ON';
    if (/^(0|off|false|no)$/i.test(text)) return 'OFF';
    return { problem: `${variable.name}=${value} is not a boolean SET GLOBAL takes` };
  }
  if (/INT/.test(variable.type)) {
    const match = /^(-?\d+)([kmgtpe])?$/i.exec(text);
    if (!match?.[1]) return { problem: `${variable.name}=${value} is not an integer SET GLOBAL takes` };
    const power = MULTIPLIERS[(match[2] ?? '').toLowerCase()] ?? 0n;
    return String(BigInt(match[1]) * 1024n ** power);
  }
  if (/DOUBLE|DECIMAL|FLOAT/.test(variable.type)) {
    if (/^-?\d+(\.\d*)?$/.test(text)) return text;
    return { problem: `${variable.name}=${value} is not a number SET GLOBAL takes` };
  }
  return sqlLiteralOf(value);
}

/** How base and head are measured once the server has said what it can switch, naming the options and why. */
export interface DesignDecision {
  design: ComparisonDesign;
  why: string;
  /** For toggle and reconnect: each arm's SET GLOBAL literals for the changed options (DEFAULT where it sets none). */
  arms: { base: Record<string, string>; head: Record<string, string> } | null;
}

const names = (options: readonly { name: string }[]) => options.map((o) => o.name).join(', ');
const are = (options: readonly unknown[]) => (options.length === 1 ? 'is' : 'are');

/**
 * The design for options that differ between base and head, from the server's own SYSTEM_VARIABLES rows: one toggled
 * run when every option is dynamic and global; separate sysbench runs without restarts (each reconnects, so each
 * session starts from the new global value) when one has session scope; restarts when one is read-only, session-only,
 * not a variable at all, or holds a value SET GLOBAL does not take, and where the server gives no READ_ONLY (MySQL).
 */
export function decideDesign(changed: readonly ChangedOption[], variables: SystemVariables): DesignDecision {
  const restart = 'a restart before each arm, base and head in ABBA order';
  if (variables.kind === 'unavailable') {
    return { design: 'restarts', why: `${names(changed)}: ${variables.why}, so ${restart}`, arms: null };
  }
  const rows = new Map(variables.rows.map((row) => [row.name.toLowerCase(), row]));
  const blocked: string[] = [];
  const session: ChangedOption[] = [];
  const arms: { base: Record<string, string>; head: Record<string, string> } = { base: {}, head: {} };
  for (const option of changed) {
    const row = rows.get(option.name);
    if (!row) {
      blocked.push(`${option.name} is not a system variable of this server (a startup-only option)`);
      continue;
    }
    if (row.readOnly) {
      blocked.push(`${option.name} is read-only (READ_ONLY = YES)`);
      continue;
    }
    if (row.scope === 'SESSION ONLY') {
      blocked.push(`${option.name} has no global value (VARIABLE_SCOPE = SESSION ONLY)`);
      continue;
    }
    const [base, head] = [setGlobalLiteral(row, option.base), setGlobalLiteral(row, option.head)];
    if (typeof base !== 'string' || typeof head !== 'string') {
      blocked.push(typeof base !== 'string' ? base.problem : (head as { problem: string }).problem);
      continue;
    }
    arms.base[option.name] = base;
    arms.head[option.name] = head;
    if (row.scope === 'SESSION') session.push(option);
  }
  if (blocked.length > 0) return { design: 'restarts', why: `${blocked.join('; ')}: ${restart}`, arms: null };
  const global = changed.filter((option) => !session.includes(option));
  if (session.length > 0) {
    const also = global.length > 0 ? `; ${names(global)} ${are(global)} dynamic and global` : '';
    return {
      design: 'reconnect',
      why: `${names(session)} ${are(session)} dynamic with session scope (VARIABLE_SCOPE = SESSION), which a connection copies when it connects${also}: each arm is its own sysbench run after SET GLOBAL, reconnecting, with no restart`,
      arms,
    };
  }
  return {
    design: 'toggle',
    why: `${names(changed)} ${are(changed)} dynamic and global (READ_ONLY = NO, VARIABLE_SCOPE = GLOBAL): one toggled run, SET GLOBAL per arm`,
    arms,
  };
}

/** A SQL LIKE pattern with `\_` escapes (a profile's variablesLike) as a case-insensitive regex. */
export function likePattern(like: string): RegExp {
  const body = like
    .split(/(\\.|%|_)/)
    .map((part) => {
      if (part === '%') return '.*';
      if (part === '_') return '.';
      const literal = part.startsWith('\\') ? part.slice(1) : part;
      return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * What `gate --list` expects before any server runs: the plugin's own variables (the profile's variablesLike) are
 * dynamic and global on MariaDB, so toggled; any other option, or a plugin no MariaDB runs, restarts. The server has
 * the last word, once the plugin is installed.
 */
export function expectedDesign(
  changed: readonly ChangedOption[],
  profile: Pick<PluginProfile, 'name' | 'variablesLike' | 'flavors'>,
): { design: ComparisonDesign; why: string } {
  const confirm =
    'the server confirms it from information_schema.SYSTEM_VARIABLES once the plugin is installed';
  if (!profile.flavors.includes('mariadb')) {
    return {
      design: 'restarts',
      why: `${names(changed)} changed; ${profile.name} runs on servers that give no READ_ONLY for their variables (MySQL): expects restarts, a restart before each arm in ABBA order`,
    };
  }
  const own = likePattern(profile.variablesLike);
  const unknown = changed.filter((option) => !own.test(option.name));
  if (unknown.length > 0) {
    return {
      design: 'restarts',
      why: `${names(unknown)} ${are(unknown)} not ${profile.name}'s, so its profile cannot say whether the server switches ${unknown.length === 1 ? 'it' : 'them'} while running: expects restarts, a restart before each arm in ABBA order, unless the server reports otherwise in information_schema.SYSTEM_VARIABLES once the plugin is installed (dynamic and global: toggled; session scope: separate runs without restarts)`,
    };
  }
  return {
    design: 'toggle',
    why: `${names(changed)} ${are(changed)} ${profile.name}'s own, dynamic and global on MariaDB: expects one toggled run, SET GLOBAL per arm; ${confirm} (restarts where it reports otherwise, or no READ_ONLY as MySQL)`,
  };
}
