import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { parseOptionFile } from '../config/option-file.ts';
import { parseServerHelp } from '../config/server-help.ts';
import { profiles } from '../profiles/index.ts';
import { resolveRun } from '../runs/runs.ts';
import { getWorkload } from '../workload/workloads.ts';
import { machineFacts, skipReason } from './machine-facts.ts';
import {
  describeConcurrency,
  describeLoad,
  expectationChanges,
  formatListing,
  type ListedRun,
  listedRun,
} from './run-listing.ts';

const connectOnly = resolveRun(
  { id: 'connect-only', plugin: 'server_audit', settings: { server_audit_events: ['CONNECT'] } },
  profiles.server_audit,
  null,
);

test('a run lists its settings, accounts, changed expectations, limit and whether it runs here', () => {
  const listed = listedRun(connectOnly, profiles.server_audit, null);
  expect(listed.expectedChanges).toMatchObject({ logsSuccessfulQueries: false });
  const text = formatListing('/ops/auditbench.config.ts', [listed], 'standard');
  expect(text).toContain('connect-only: ');
  expect(text).toContain("server_audit_events='CONNECT'");
  expect(text).toContain('accounts        application auditbench_app, checks auditbench_checks');
  expect(text).toContain('load            OLTP (oltp_read_write)');
  expect(text).toContain(`limit           ${profiles.server_audit.maxOverheadPct}% of baseline TPS`);
  expect(text).toContain('if doubtful     inconclusive fail, idle fail, interference warn');
  expect(text).toContain('here            measured');
  expect(text).toContain('1 run(s) in /ops/auditbench.config.ts; threads as the standard workload runs them');
});

test('the top level’s maxOverheadPct is the limit of a run that sets none, and a skip says why', () => {
  const limited = resolveRun(
    { id: 'connect-only', plugin: 'server_audit', maxOverheadPct: 7 },
    profiles.server_audit,
    null,
  );
  const listed = listedRun(limited, profiles.server_audit, 'no Docker here');
  expect(listed.limitPct).toBe(7);
  expect(formatListing('c.ts', [listed], 'smoke')).toContain(
    'here            skipped: no Docker here\n\n1 run(s) in c.ts, 1 skipped on this machine; threads as the smoke',
  );
});

test('the points a run is measured at: its threads and cores, and the open loop a sweep adds', () => {
  const smoke = getWorkload('smoke');
  const here = { cpus: 2, external: false };
  const plain = { threads: null, cores: null, openLoop: null };
  expect(describeConcurrency(plain, smoke, here)).toBe('4 threads (pinned cores)');
  expect(describeConcurrency({ ...plain, threads: [1, 4, 16] }, smoke, here)).toBe(
    '1, 4, 16 threads (pinned cores), then an open loop at 70% of the 16-thread baseline',
  );
  expect(
    describeConcurrency({ ...plain, threads: [1], openLoop: true }, smoke, { cpus: 2, external: true }),
  ).toBe('1 thread (all cores), then an open loop at 70% of the 1-thread baseline');
  const listed = listedRun(connectOnly, profiles.server_audit, null, '4 threads (pinned cores)');
  expect(formatListing('c.ts', [listed], 'smoke')).toContain('  points          4 threads (pinned cores)\n');
});

test('a custom profile has no base to differ from', () => {
  expect(expectationChanges(null, profiles.server_audit.expected)).toEqual({});
});

const mariadb = {
  target: 'local' as const,
  binary: { path: '/usr/sbin/mariadbd', flavor: 'mariadb' as const, version: '10.11.19-MariaDB' },
  libraries: { names: new Set(['server_audit.so']), dirs: ['/usr/lib/mysql/plugin'] },
  docker: null,
};

test.for([
  ['server_audit', null],
  ['general_log', null],
  ['null_audit', 'is for mysql servers, /usr/sbin/mariadbd is mariadb'],
  [
    'mcafee_audit',
    'libaudit_plugin.so is not in /usr/lib/mysql/plugin: set AUDITBENCH_PLUGIN_DIR to a folder holding the McAfee/Trellix AUDIT v1.2.5 library you deploy',
  ],
] as const)('%s on a MariaDB without extra libraries: %s', ([name, reason]) => {
  const why = skipReason(profiles[name], mariadb);
  if (reason === null) expect(why).toBeNull();
  else expect(why).toContain(reason);
});

test('no Docker skips every run of the container target; the external target is not asked', async () => {
  const noDocker = { ...mariadb, binary: null, docker: { ok: false as const, problem: 'no Docker here' } };
  expect(skipReason(profiles.server_audit, noDocker)).toBe('no Docker here');
  const external = await machineFacts({ target: 'external' } as Parameters<typeof machineFacts>[0]);
  expect(skipReason(profiles.mcafee_audit, external)).toBeNull();
});

test('the load line names the script, prepared statements off and every added rate', () => {
  expect(
    describeLoad({
      accounts: { application: 'app', checks: 'auditbench_checks' },
      added: { connectionsPerS: 10, failedLoginsPerS: 0, ddlPerS: 2, dclPerS: 0 },
      script: { path: 'kv.lua', sha256: 'x' },
      preparedStatements: false,
    }),
  ).toBe('sysbench script kv.lua, prepared statements off, plus connectionsPerS 10, ddlPerS 2');
});

// `list --json` for a Galera node's file: the groups read, and each option kept, left out or moved, with why.
test('a Galera file lists the groups read, and what was kept and left out, each with why', () => {
  const text = [
    '[client-server]',
    'socket = /run/mysqld/mysqld.sock',
    'port = 3306',
    '[client]',
    'password = "client-secret"',
    '[galera]',
    'wsrep_cluster_address = gcomm://10.0.0.1,10.0.0.2',
    'wsrep_sst_auth = sst:sst-secret',
    'binlog_format = ROW',
    '[mariadb]',
    'plugin_load_add = unix_socket,server_audit',
    'plugin_load_add = simple_password_check',
  ].join('\n');
  const catalogue = parseServerHelp(
    readFileSync(new URL('../../fixtures/server-help/mariadb-10.11.txt', import.meta.url), 'utf8'),
  );
  const libraries = {
    dir: '/usr/lib/mysql/plugin/',
    names: new Set(['simple_password_check.so', 'server_audit.so']),
  };
  const run = resolveRun(
    { id: 'galera-node', plugin: 'server_audit', cnf: { kind: 'option-file', path: 'node.cnf' } },
    profiles.server_audit,
    { path: 'node.cnf', text, parsed: parseOptionFile(text, 'node.cnf', catalogue.groups ?? undefined) },
    undefined,
    { where: 'auditbench.config.ts: runs[0]', catalogue, libraries },
  );
  const listed = JSON.parse(JSON.stringify(listedRun(run, profiles.server_audit, null))) as ListedRun;
  expect(listed.optionFile?.groups).toEqual({
    read: ['client-server', 'galera', 'mariadb'],
    serverReads: [...(catalogue.groups?.names ?? [])],
    from: "mariadbd 10.11.19-MariaDB-0+deb12u1's --help --verbose",
  });
  expect(listed.startupOptions).toEqual({
    'loose-binlog_format': 'ROW',
    'loose-plugin_load_add': 'simple_password_check',
  });
  expect(listed.kept).toEqual([
    "node.cnf:9 [galera]: binlog_format=ROW is kept: the DBA's to measure: the run's server starts with it, as production does",
    "node.cnf:12 [mariadb]: plugin_load_add=simple_password_check is kept: simple_password_check.so is in the server's plugin directory /usr/lib/mysql/plugin/: the run's server loads it too, as production does",
  ]);
  expect(listed.leftOut.map((line) => line.replace(/ is left out: .*/, ''))).toEqual([
    'node.cnf:4: [client] (1 line)',
    'node.cnf:2 [client-server]: socket',
    'node.cnf:3 [client-server]: port',
    'node.cnf:7 [galera]: wsrep_cluster_address',
    'node.cnf:8 [galera]: wsrep_sst_auth',
    'node.cnf:11 [mariadb]: plugin_load_add (unix_socket,server_audit)',
  ]);
  expect(JSON.stringify(listed)).not.toMatch(/sst-secret|client-secret|gcomm/);
  const shown = formatListing('auditbench.config.ts', [listed], 'standard');
  expect(shown).toContain(
    "  groups read     [client-server] [galera] [mariadb] (by mariadbd 10.11.19-MariaDB-0+deb12u1's --help --verbose)",
  );
  expect(shown).toContain(
    '  kept            node.cnf:12 [mariadb]: plugin_load_add=simple_password_check is kept',
  );
  expect(shown).not.toContain('binlog_format=ROW is kept');
});
