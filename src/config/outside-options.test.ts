import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseOptionFile } from './option-file.ts';
import {
  classifiedNames,
  classifyOutsideOptions,
  keptLine,
  leftOutLine,
  movedLine,
  type OutsideOption,
} from './outside-options.ts';
import { parseServerHelp } from './server-help.ts';

const helpDir = new URL('../../fixtures/server-help/', import.meta.url);
const helps = readdirSync(helpDir).map((name) => ({
  name,
  catalogue: parseServerHelp(readFileSync(new URL(name, helpDir), 'utf8')),
}));
const mariadb = helps.find((h) => h.name.startsWith('mariadb-10.11'))?.catalogue ?? null;

const file = (name: string, value: string): OutsideOption => ({ source: 'prod.cnf', name, value });
const classify = (options: OutsideOption[], logPathOptions = ['server_audit_file_path']) =>
  classifyOutsideOptions(options, { catalogue: mariadb, logPathOptions });

describe('the recorded help output', () => {
  test.for(helps)('$name lists the options and their defaults', ({ catalogue }) => {
    expect(catalogue.names.size).toBeGreaterThan(300);
    expect(catalogue.names.has('datadir')).toBe(true);
    expect(catalogue.textValued.has('datadir')).toBe(true);
  });

  // A new server version's new path option must be classified before it can slip through as a kept one.
  test.for(helps)('$name: every option that looks like a path is classified', ({ catalogue }) => {
    const looksLikePath = /dir|file|path|socket|log|home|basename|priv|chroot|key|cert|_ca$|crl/;
    const classified = classifiedNames();
    const unclassified = [...catalogue.textValued].filter(
      (name) =>
        (looksLikePath.test(name) || (catalogue.defaults.get(name) ?? '').startsWith('/')) &&
        !classified.has(name) &&
        !name.startsWith('wsrep_') &&
        !name.startsWith('mysqlx'),
    );
    expect(unclassified).toEqual([]);
  });
});

describe('a production option file', () => {
  const production = [
    file('datadir', '/var/lib/mysql'),
    file('port', '3306'),
    file('bind-address', '0.0.0.0'),
    file('socket', '/run/mysqld/mysqld.sock'),
    file('pid-file', '/run/mysqld/mysqld.pid'),
    file('log_error', '/var/log/mysql/error.log'),
    file('innodb_buffer_pool_size', '256M'),
    file('character-set-server', 'utf8mb4'),
    file('server_audit_file_path', '/var/log/mysql/audit.log'),
    file('log_bin', '/var/log/mysql/mysql-bin.log'),
    file('wsrep_cluster_address', 'gcomm://10.0.0.1,10.0.0.2'),
    file('user', 'mysql'),
  ];

  test("keeps only what is the DBA's to measure, moves the logs, leaves the rest out", () => {
    const out = classify(production);
    expect(out.refusals).toEqual([]);
    expect(out.kept).toEqual({
      innodb_buffer_pool_size: '256M',
      'character-set-server': 'utf8mb4',
      server_audit_file_path: 'audit.log',
      log_bin: 'mysql-bin.log',
    });
    expect(out.leftOut.map((o) => o.name)).toEqual([
      'datadir',
      'port',
      'bind-address',
      'socket',
      'pid-file',
      'log_error',
      'wsrep_cluster_address',
      'user',
    ]);
    expect(out.moved.map(movedLine)).toEqual([
      'prod.cnf: production writes /var/log/mysql/audit.log (server_audit_file_path); this run writes <run>/audit.log',
      'prod.cnf: production writes /var/log/mysql/mysql-bin.log (log_bin); this run writes <run>/mysql-bin.log',
    ]);
    expect(leftOutLine(out.leftOut[1] as never)).toBe(
      "prod.cnf: port is left out: the run's server listens only on 127.0.0.1, on a port of its own",
    );
  });

  test('without the binary at hand the same file is classified the same', () => {
    const out = classifyOutsideOptions(production, {
      catalogue: null,
      logPathOptions: ['server_audit_file_path'],
    });
    expect(out.kept).toEqual(classify(production).kept);
    expect(out.leftOut).toEqual(classify(production).leftOut);
  });
});

describe('how the server reads a name', () => {
  test.for([
    ['loose-datadir', '/var/lib/mysql', 'loose-datadir'],
    ['DATADIR', '/var/lib/mysql', 'DATADIR'],
    ['datad', '/var/lib/mysql', 'datad (datadir)'],
    ['loose_bind_address', '0.0.0.0', 'loose_bind_address'],
    ['skip-networking', 'ON', 'skip-networking'],
    ['enable-local-infile', 'ON', 'enable-local-infile (local_infile)'],
    ['skip-name-resolve', 'ON', 'skip-name-resolve'],
    ['mysqlx-port', '33060', 'mysqlx-port'],
    ['wsrep_on', 'ON', 'wsrep_on'],
    ['wsrep_provider', '/usr/lib/galera/libgalera_smm.so', 'wsrep_provider'],
    ['plugin_load_add', 'server_audit', 'plugin_load_add (server_audit)'],
    ['plugin-dir', '/usr/lib/mysql/plugin', 'plugin-dir'],
  ])('%s is left out', ([name, value, shown]) => {
    const out = classify([file(name as string, value as string)]);
    expect(out.refusals).toEqual([]);
    expect(out.kept).toEqual({});
    expect(out.leftOut.map((o) => o.name)).toEqual([shown]);
  });

  test.for([
    ['skip-grant-tables', 'ON', 'skip-grant-tables starts the server with every account unchecked'],
    ['skip_grant_tables', '', 'skip_grant_tables starts the server'],
    ['loose-skip-grant-tables', 'ON', 'loose-skip-grant-tables starts the server'],
    ['skip-secure-auth', 'ON', 'skip-secure-auth (secure_auth) switched off'],
    ['secure_auth', 'OFF', 'secure_auth switched off'],
    ['allow-suspicious-udfs', 'ON', 'allow-suspicious-udfs lets any library function'],
  ])('%s=%s is refused', ([name, value, line]) => {
    const out = classify([file(name as string, value as string)]);
    expect(out.refusals).toHaveLength(1);
    expect(out.refusals[0]).toContain(`prod.cnf: ${line}`);
    expect(out.refusals[0]).toContain('remove it');
  });

  test('skip-grant-tables=OFF is the default and refuses nothing', () => {
    expect(classify([file('skip-grant-tables', 'OFF')]).refusals).toEqual([]);
  });

  test('a name that abbreviates several options is refused', () => {
    const out = classify([file('log', '1')]);
    expect(out.refusals[0]).toMatch(
      /^prod\.cnf: log abbreviates several server options \(.*\): write the option's full name$/,
    );
  });
});

describe('values', () => {
  test.for([
    ['\n', 'U+000A'],
    ['\r', 'U+000D'],
    ['\u0000', 'U+0000'],
    ['\u007f', 'U+007F'],
  ])('a value holding %j is refused naming %s', ([c, code]) => {
    const out = classify([file('init_connect', `x${c}plugin_load_add=evil.so${c}#`)]);
    expect(out.refusals).toEqual([
      `prod.cnf: init_connect holds the control character ${code}: write the option on one line, without control characters`,
    ]);
    expect(out.kept).toEqual({});
  });

  test.for([
    ['innodb_data_file_path', '/dev/sdb:10Gnewraw', '/dev/sdb'],
    ['init_connect', "SET @x='/etc/passwd'", '/etc/passwd'],
    ['file_key_management_filekey_x', 'FILE:/secret/key', '/secret/key'],
  ])('an absolute path in a kept value is refused: %s', ([name, value, found]) => {
    const out = classify([file(name as string, value as string)]);
    expect(out.refusals[0]).toContain(`names ${found}, a path outside the run`);
  });

  test('a log path inside the data directory stays, one climbing out moves, a folder path moves to the default', () => {
    const out = classify([
      file('server_audit_file_path', 'audit/server_audit.log'),
      file('sql_error_log_filename', '../../var/log/errors.log'),
      file('general_log_file', '/var/log/mysql/'),
      file('innodb_log_group_home_dir', '/srv/redo'),
    ]);
    expect(out.kept).toEqual({
      server_audit_file_path: 'audit/server_audit.log',
      sql_error_log_filename: 'errors.log',
    });
    expect(out.moved.map((m) => [m.name, m.to])).toEqual([
      ['sql_error_log_filename', 'errors.log'],
      ['general_log_file', ''],
      ['innodb_log_group_home_dir', ''],
    ]);
    expect(movedLine(out.moved[2] as never)).toBe(
      'prod.cnf: production writes /srv/redo (innodb_log_group_home_dir); this run keeps them in its own data directory',
    );
  });

  test('SQL with a division is no path', () => {
    expect(classify([file('init_connect', 'SET @x = 4/2')]).kept).toEqual({ init_connect: 'SET @x = 4/2' });
  });
});

// The groups mariadbd reads beyond [mysqld] carry production's place, network and cluster too: the rules hold there.
describe('a Galera node: [client-server] and [galera] are read, and still never reach the run', () => {
  const text = [
    '[client-server]',
    'socket = /run/mysqld/mysqld.sock',
    'port = 3306',
    '[galera]',
    'wsrep_on = ON',
    'wsrep_provider = /usr/lib/galera/libgalera_smm.so',
    'wsrep_cluster_address = gcomm://10.0.0.1,10.0.0.2,10.0.0.3',
    'wsrep_sst_auth = sst:sst-secret',
    'wsrep-node-address = 10.0.0.1',
    'binlog_format = ROW',
    '[mariadb]',
    'plugin_load_add = unix_socket,server_audit',
    'plugin_load_add = simple_password_check;server_audit',
    'loose-server-audit = FORCE_PLUS_PERMANENT',
  ].join('\n');
  const out = classifyOutsideOptions(parseOptionFile(text, 'node.cnf').lines, {
    catalogue: mariadb,
    managed: new Map([['server_audit', 'auditbench installs the plugin itself']]),
    ownPlugin: { name: 'SERVER_AUDIT', soname: 'server_audit.so' },
    libraries: {
      dir: '/usr/lib/mysql/plugin/',
      names: new Set(['simple_password_check.so', 'server_audit.so']),
    },
  });

  test('the socket, port, cluster and SST password are left out; the rest is kept', () => {
    expect(out.refusals).toEqual([]);
    expect(out.kept).toEqual({ binlog_format: 'ROW', plugin_load_add: 'simple_password_check' });
    expect(JSON.stringify(out.kept)).not.toMatch(/sst-secret|gcomm|10\.0\.0|mysqld\.sock|3306/);
    expect(out.leftOut.map((o) => `${o.source} ${o.name}`)).toEqual([
      'node.cnf:2 [client-server] socket',
      'node.cnf:3 [client-server] port',
      'node.cnf:5 [galera] wsrep_on',
      'node.cnf:6 [galera] wsrep_provider',
      'node.cnf:7 [galera] wsrep_cluster_address',
      'node.cnf:8 [galera] wsrep_sst_auth',
      'node.cnf:9 [galera] wsrep-node-address',
      'node.cnf:12 [mariadb] plugin_load_add (unix_socket,server_audit)',
      'node.cnf:13 [mariadb] plugin_load_add (server_audit)',
      'node.cnf:14 [mariadb] loose-server-audit',
    ]);
    // A left-out line names the option, never its value.
    expect(out.leftOut.map(leftOutLine).join('\n')).not.toContain('sst-secret');
  });

  test('other plugins are kept by their library, the measured one left out, its load option said as a finding', () => {
    expect(out.keptWhy.map(keptLine)).toContain(
      "node.cnf:13 [mariadb]: plugin_load_add=simple_password_check is kept: simple_password_check.so is in the server's plugin directory /usr/lib/mysql/plugin/: the run's server loads it too, as production does",
    );
    const [comma, own, load] = out.leftOut.slice(-3).map(leftOutLine);
    expect(comma).toContain("reads 'unix_socket,server_audit' as one library and loads none of it");
    expect(own).toBe(
      'node.cnf:13 [mariadb]: plugin_load_add (server_audit) is left out: it loads SERVER_AUDIT, the plugin measured: auditbench installs it itself, to measure the server with it off and on',
    );
    expect(load).toBe(
      'node.cnf:14 [mariadb]: loose-server-audit is left out: auditbench installs the plugin itself; finding: in production, under FORCE_PLUS_PERMANENT, the server does not start without the plugin and UNINSTALL PLUGIN fails while it runs; this run installs and uninstalls it, which production cannot',
    );
  });
});
