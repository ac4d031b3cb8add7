import { describe, expect, test } from 'vitest';
import { parseOptionFile } from '../config/option-file.ts';
import { profiles } from '../profiles/index.ts';
import { notMeasuredBy, resolveRun } from './runs.ts';

const cnf = (text: string) => ({
  path: 'ops/audit.cnf',
  text,
  parsed: parseOptionFile(text, 'ops/audit.cnf'),
});

describe('resolveRun', () => {
  test('a stock run keeps the profile as it is', () => {
    const run = resolveRun({ plugin: 'server_audit' }, profiles.server_audit, null);
    expect(run.id).toBe('server_audit');
    expect(run.title).toBe(profiles.server_audit.title);
    expect(run.profile.install).toEqual(profiles.server_audit.install);
    expect(run.profile.expected).toEqual(profiles.server_audit.expected);
    expect(run.maxOverheadPct).toBe(profiles.server_audit.maxOverheadPct);
  });

  test('settings are quoted into measureSettings and named in the title', () => {
    const run = resolveRun(
      {
        plugin: 'server_audit',
        settings: { server_audit_events: ['QUERY_DDL', 'QUERY_DCL'], server_audit_excl_users: 'app' },
      },
      profiles.server_audit,
      null,
    );
    expect(run.profile.measureSettings).toMatchObject({
      server_audit_events: "'QUERY_DDL,QUERY_DCL'",
      server_audit_excl_users: "'app'",
      server_audit_file_rotations: '4',
    });
    expect(run.title).toBe(
      'MariaDB server_audit (server_audit_events=QUERY_DDL,QUERY_DCL, server_audit_excl_users=app)',
    );
    // DDL and DCL only: the plain SELECT and the failing SELECT are not logged, CREATE USER is.
    expect(run.profile.expected).toMatchObject({
      logsSuccessfulQueries: false,
      failedQueryCodes: [],
      logsPasswordStatements: true,
    });
  });

  test("an option file's options go to my.cnf before install; what auditbench drives is left out", () => {
    const text =
      '[mariadb]\nplugin_load_add = server_audit\nserver_audit_logging = ON\nserver_audit_events = CONNECT\n';
    const run = resolveRun(
      { plugin: 'server_audit', cnf: { kind: 'option-file', path: 'ops/audit.cnf' } },
      profiles.server_audit,
      cnf(text),
    );
    expect(run.profile.install.slice(0, 2)).toEqual([
      { kind: 'config', edit: { set: { 'loose-server_audit_events': 'CONNECT' } } },
      { kind: 'restart' },
    ]);
    expect(run.outsideOptions.leftOut).toEqual([
      {
        source: 'ops/audit.cnf:2 [mariadb]',
        name: 'plugin_load_add (server_audit)',
        why: 'it loads SERVER_AUDIT, the plugin measured: auditbench installs it itself, to measure the server with it off and on',
      },
      {
        source: 'ops/audit.cnf:3 [mariadb]',
        name: 'server_audit_logging',
        why: 'auditbench switches logging on and off to measure',
      },
    ]);
    expect(run.profile.expected).toMatchObject({
      logsSuccessfulQueries: false,
      logsPasswordStatements: false,
    });
    expect(run.optionFile?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("the run's startup options leave my.cnf at its uninstall, before the profile's own steps", () => {
    const run = resolveRun(
      { plugin: 'server_audit', startupOptions: { innodb_buffer_pool_size: '512M' } },
      profiles.server_audit,
      null,
    );
    expect(run.profile.install[0]).toEqual({
      kind: 'config',
      edit: { set: { 'loose-innodb_buffer_pool_size': '512M' } },
    });
    expect(run.profile.uninstall).toEqual([
      { kind: 'config', edit: { unset: ['loose-innodb_buffer_pool_size'] } },
      ...profiles.server_audit.uninstall,
    ]);
    // Without startup options the uninstall is the profile's.
    const stock = resolveRun({ plugin: 'server_audit' }, profiles.server_audit, null);
    expect(stock.profile.uninstall).toEqual(profiles.server_audit.uninstall);
  });

  test("the run's own expectations and limit win over what the settings imply", () => {
    const run = resolveRun(
      {
        plugin: 'server_audit',
        settings: { server_audit_events: 'CONNECT' },
        expected: { logsSuccessfulQueries: true },
        maxOverheadPct: 15,
        id: 'x',
      },
      profiles.server_audit,
      null,
    );
    expect(run.profile.expected.logsSuccessfulQueries).toBe(true);
    expect(run.maxOverheadPct).toBe(15);
    expect(run.id).toBe('x');
  });
});

describe('notMeasuredBy', () => {
  const stock = resolveRun({ plugin: 'server_audit' }, profiles.server_audit, null);
  const general = resolveRun({ plugin: 'general_log' }, profiles.general_log, null);
  const sweep = (threads: number[], events?: string[]) =>
    resolveRun(
      {
        id: 'server_audit-all',
        plugin: 'server_audit',
        threads,
        ...(events && { settings: { server_audit_events: events } }),
      },
      profiles.server_audit,
      null,
    );

  test('a sweep through the workload’s threads measures the stock run: it is left out, the others stay', () => {
    expect(notMeasuredBy([stock, general], [sweep([1, 4, 16])], 4).map((r) => r.id)).toEqual(['general_log']);
  });

  test.for([
    ['a sweep that misses the point', [1, 16], undefined],
    ['other settings', [1, 4, 16], ['CONNECT']],
  ] as const)('%s keeps the stock run', ([, threads, events]) => {
    expect(notMeasuredBy([stock], [sweep([...threads], events && [...events])], 4)).toEqual([stock]);
  });
});
