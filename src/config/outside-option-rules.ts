/**
 * The rules src/config/outside-options.ts classifies a server option from outside by: what is left out (and why),
 * moved into the run's data directory, refused, or split entry by entry; by full name, or by family prefix. Pure data.
 */
export type LeftOut = 'place' | 'network' | 'account' | 'other-host';
export type Rule =
  | { kind: 'leave'; why: LeftOut }
  | { kind: 'plugin-list' }
  | { kind: 'move-file' }
  /** A folder: left to its default, which is inside the run's data directory. */
  | { kind: 'move-dir' }
  /** Refused when it switches a protection off (a bare flag, ON); kept otherwise. */
  | { kind: 'refuse-on'; why: string }
  /** Refused when it is switched off (OFF, 0, or the skip-/disable- prefix). */
  | { kind: 'refuse-off'; why: string };

export const WHY: Record<LeftOut, string> = {
  place:
    "the run's server keeps its own data directory, socket and files in its own folder; production's are never touched",
  network: "the run's server listens only on 127.0.0.1, on a port of its own",
  account: "the run's server runs as auditbench's own OS user",
  'other-host': 'it would reach another host (a live cluster or a remote service)',
};

const leave = (why: LeftOut, names: string[]): [string, Rule][] =>
  names.map((name) => [name, { kind: 'leave', why }]);

/** Options by their full name (MariaDB 10.11 and MySQL 9.7 names; `-` written `_`). */
export const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
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
  ['plugin_load', { kind: 'plugin-list' }],
  ['plugin_load_add', { kind: 'plugin-list' }],
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
