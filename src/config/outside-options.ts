import { normaliseOptionName, type OptionCatalogue } from './server-help.ts';

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
 * - kept: everything else is the DBA's to measure.
 */
type LeftOut = 'place' | 'network' | 'account' | 'other-host' | 'plugin';
type Rule =
  | { kind: 'leave'; why: LeftOut }
  | { kind: 'move-file' }
  /** A folder: left to its default, which is inside the run's data directory. */
  | { kind: 'move-dir' }
  /** Refused when it switches a protection off (a bare flag, ON); kept otherwise. */
  | { kind: 'refuse-on'; why: string }
  /** Refused when it is switched off (OFF, 0, or the skip-/disable- prefix). */
  | { kind: 'refuse-off'; why: string };

const WHY: Record<LeftOut, string> = {
  place:
    "the run's server keeps its own data directory, socket and files in its own folder; production's are never touched",
  network: "the run's server listens only on 127.0.0.1, on a port of its own",
  account: "the run's server runs as auditbench's own OS user",
  'other-host': 'it would reach another host (a live cluster or a remote service)',
  plugin: 'auditbench installs the plugin itself',
};

const leave = (why: LeftOut, names: string[]): [string, Rule][] =>
  names.map((name) => [name, { kind: 'leave', why }]);

/** Options by their full name (MariaDB 10.11 and MySQL 9.7 names; `-` written `_`). */
const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ...leave('place', [
    'datadir',
    'socket',
    'pid_file',
    'log_error',
    'tmpdir',
    'basedir',
    'plugin_dir',
    'secure_file_priv',
    'init_file',
    'lc_messages_dir',
    'language',
    'character_sets_dir',
    'chroot',
    'des_key_file',
    'ft_stopword_file',
    'ssl_ca',
    'ssl_capath',
    'ssl_cert',
    'ssl_crl',
    'ssl_crlpath',
    'ssl_key',
    'file_key_management_filename',
    'file_key_management_filekey',
    'keyring_file_data',
    'tls_key',
    'tls_cert',
    'tls_ca',
    'admin_ssl_ca',
    'admin_ssl_capath',
    'admin_ssl_cert',
    'admin_ssl_crl',
    'admin_ssl_crlpath',
    'admin_ssl_key',
    'caching_sha2_password_private_key_path',
    'caching_sha2_password_public_key_path',
    'sha256_password_private_key_path',
    'sha256_password_public_key_path',
    'secondary_engine_cost_threshold_file',
    'ndb_tls_search_path',
    'keyring_migration_source',
    'keyring_migration_destination',
    'daemonize',
    'core_file',
    'debug',
  ]),
  ...leave('network', [
    'port',
    'bind_address',
    'skip_networking',
    'extra_port',
    'extra_max_connections',
    'admin_address',
    'admin_port',
    'create_admin_listener_thread',
    'skip_name_resolve',
    'local_infile',
    'report_host',
    'report_port',
    'report_user',
    'report_password',
    'proxy_protocol_networks',
    'port_open_timeout',
    'named_pipe',
    'shared_memory',
  ]),
  ...leave('account', ['user']),
  ...leave('other-host', [
    'feedback',
    'feedback_url',
    'feedback_http_proxy',
    'feedback_user_info',
    'feedback_send_retry_wait',
    'feedback_send_timeout',
    'redirect_url',
    'keyring_migration_host',
    'keyring_migration_port',
    'keyring_migration_socket',
    'keyring_migration_user',
    'keyring_migration_password',
  ]),
  // plugin_maturity stays: a supplied library's *.cnf lowers it so that its plugin may load at all.
  ...leave('plugin', ['plugin_load', 'plugin_load_add']),
  ...[
    'log_bin',
    'log_bin_index',
    'relay_log',
    'relay_log_index',
    'relay_log_info_file',
    'master_info_file',
    'general_log_file',
    'slow_query_log_file',
    'log_slow_query_file',
    'log_tc',
    'log_isam',
    'log_ddl_recovery',
    'innodb_buffer_pool_filename',
    'wsrep_status_file',
    'binlog_index',
    // The built-in profiles' log files, for a plugin folder's *.cnf, which no profile is read with.
    'audit_log_file',
    'audit_json_log_file',
    'server_audit_file_path',
    'sql_error_log_filename',
  ].map((name): [string, Rule] => [name, { kind: 'move-file' }]),
  ...[
    'innodb_undo_directory',
    'innodb_log_group_home_dir',
    'innodb_data_home_dir',
    'innodb_tmpdir',
    'innodb_temp_tablespaces_dir',
    'innodb_directories',
    'aria_log_dir_path',
    'slave_load_tmpdir',
    'replica_load_tmpdir',
    'wsrep_data_home_dir',
    'innodb_redo_log_archive_dirs',
    'innodb_doublewrite_dir',
  ].map((name): [string, Rule] => [name, { kind: 'move-dir' }]),
  ['skip_grant_tables', { kind: 'refuse-on', why: 'starts the server with every account unchecked' }],
  ['allow_suspicious_udfs', { kind: 'refuse-on', why: 'lets any library function be loaded as a UDF' }],
  ['secure_auth', { kind: 'refuse-off', why: 'lets accounts log in with old, weak password hashes' }],
  [
    'insecure',
    { kind: 'refuse-on', why: 'starts a MySQL server without a secure_file_priv or password checks' },
  ],
]);

/** Families by prefix: every option that starts so (MySQL's X plugin, Galera, the mysqlx SSL files). */
const FAMILIES: readonly [string, Rule][] = [
  ['mysqlx', { kind: 'leave', why: 'network' }],
  ['wsrep_', { kind: 'leave', why: 'other-host' }],
];

/**
 * Names the binary's help shows that look like paths (a text value, with dir, file, path, log, socket, key … in the
 * name) but hold none: kept as the DBA's. The unit test holds every path-looking option to be in RULES or here.
 */
export const NOT_PATHS: ReadonlySet<string> = new Set([
  'binlog_error_action',
  'binlog_row_value_options',
  'innodb_log_writer_threads',
  'log_error_services',
  'log_error_suppression_list',
  'log_timestamps',
  'performance_schema_logger',
  'terminology_use_previous',
  'aria_log_purge_type',
  'aria_sync_log_dir',
  'binlog_checksum',
  'binlog_do_db',
  'binlog_format',
  'binlog_ignore_db',
  'binlog_row_image',
  'binlog_row_metadata',
  'character_set_filesystem',
  'delay_key_write',
  'ignore_db_dirs',
  'innodb_data_file_path',
  'innodb_temp_data_file_path',
  'log_basename',
  'log_disabled_statements',
  'log_output',
  'log_slow_disabled_statements',
  'log_slow_filter',
  'log_slow_verbosity',
  'optimizer_adjust_secondary_key_costs',
  'unix_socket',
  'wsrep_certification_rules',
  'wsrep_forced_binlog_format',
]);

/** The rule for a full name, or null to keep it. */
export function ruleFor(name: string): Rule | null {
  return RULES.get(name) ?? FAMILIES.find(([prefix]) => name.startsWith(prefix))?.[1] ?? null;
}

/** Names the unit test checks against the binary's help: those with a rule, and the known non-paths. */
export const classifiedNames = (): ReadonlySet<string> => new Set([...RULES.keys(), ...NOT_PATHS]);

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

export function classifyOutsideOptions(
  options: readonly OutsideOption[],
  context: ClassifyContext,
): ClassifiedOptions {
  const out: ClassifiedOptions = { kept: {}, leftOut: [], moved: [], refusals: [] };
  const logPaths = new Set((context.logPathOptions ?? []).map(normaliseOptionName));
  for (const { source, name, value } of options) {
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
      out.leftOut.push({ source, name, why: managed });
      continue;
    }
    const rule: Rule | null = logPaths.has(resolved.name) ? { kind: 'move-file' } : ruleFor(resolved.name);
    const written = normaliseOptionName(name).replace(/^loose_/, '');
    const shown = resolved.name === written ? name : `${name} (${resolved.name})`;
    if (rule?.kind === 'leave') {
      out.leftOut.push({ source, name: shown, why: WHY[rule.why] });
    } else if (rule?.kind === 'refuse-on' || rule?.kind === 'refuse-off') {
      const on = switchedOn(value, resolved.negated);
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
      } else out.kept[name] = value;
    }
  }
  return out;
}

/** The line a moved option gets: what production writes, and what this run writes instead. */
export function movedLine(option: MovedOption): string {
  const to = option.to === '' ? 'keeps them in its own data directory' : `writes <run>/${option.to}`;
  return `${option.source}: production writes ${option.from} (${option.name}); this run ${to}`;
}

/** The line a left-out option gets. */
export function leftOutLine(option: LeftOutOption): string {
  return `${option.source}: ${option.name} is left out: ${option.why}`;
}
