import { describe, expect, test } from 'vitest';
import { createFakeServer, type FakeReply, type FakeServer } from '../../test/support/fake-server.ts';
import { mcafeeAudit } from '../profiles/mcafee-audit.ts';
import { mysqlEnterpriseAudit } from '../profiles/mysql-enterprise-audit.ts';
import { perconaAuditLog } from '../profiles/percona-audit-log.ts';
import { lifecycleContext, lifecycleSteps } from './lifecycle/index.ts';
import { runSteps } from './steps.ts';

/**
 * The profiles' procedures run against a fake scripted the way each plugin is documented to answer
 * (docs/plugins.md; the McAfee uninstall procedure as observed live).
 */

const refuse = (errno: number, message: string): FakeReply => ({ error: { errno, message } });
const pluginBusy = { code: 1620, message: 'Plugin is busy and will be uninstalled on shutdown' };

interface McafeeQuirks {
  /** The plugin fails to initialise at start (e.g. no offsets for this mysqld), so its variables are unknown. */
  initFails?: boolean;
  /** What the second UNINSTALL answers instead of unloading. */
  secondUninstall?: FakeReply;
}

/** The McAfee/Trellix plugin as installed, answering like is_remove_patches() and mysqld's option parser. */
function mcafeeServer(quirks: McafeeQuirks = {}): FakeServer {
  let loaded = true;
  let uninstallAllowed = false;
  let patchesRemoved = false;
  const uninstall = (): FakeReply => {
    if (!loaded) return refuse(1305, 'PLUGIN AUDIT does not exist');
    if (!uninstallAllowed) return refuse(1148, 'Uninstall AUDIT plugin disabled');
    if (!patchesRemoved) {
      patchesRemoved = true;
      return refuse(1620, 'Uninstall AUDIT plugin must be called again to complete');
    }
    if (quirks.secondUninstall) return quirks.secondUninstall;
    loaded = false;
    return { warnings: [pluginBusy] };
  };
  return createFakeServer({
    onStart: ({ config }) => {
      const flag = config.get('audit_uninstall_plugin');
      if (flag !== undefined && (!loaded || quirks.initFails)) {
        return `[ERROR] /usr/sbin/mysqld: unknown variable 'audit_uninstall_plugin=${flag}'`;
      }
      uninstallAllowed = flag === '1';
      patchesRemoved = false;
      return undefined;
    },
    rules: [
      { match: 'UNINSTALL PLUGIN AUDIT', reply: uninstall },
      {
        match: /PLUGIN_STATUS .* PLUGIN_NAME = 'AUDIT'/,
        reply: () => ({ rows: loaded ? [{ status: 'ACTIVE' }] : [] }),
      },
    ],
  });
}

const uninstallAudit = (server: FakeServer) => runSteps(server, mcafeeAudit.uninstall, 'Uninstalling AUDIT');

describe('McAfee/Trellix uninstall, as the seed does it', () => {
  test('refused UNINSTALL, my.cnf flag, restart, UNINSTALL twice, flag out, restart — in that order', async () => {
    const server = mcafeeServer();
    const answers = await uninstallAudit(server);
    expect(server.lines()).toEqual([
      'SQL UNINSTALL PLUGIN AUDIT → ERROR 1148',
      'my.cnf set audit_uninstall_plugin=1',
      'restart',
      'SQL UNINSTALL PLUGIN AUDIT → ERROR 1620',
      'SQL UNINSTALL PLUGIN AUDIT',
      'my.cnf unset audit_uninstall_plugin',
      'restart',
    ]);
    expect(answers[0]?.error).toMatchObject({ errno: 1148, message: expect.stringContaining('disabled') });
    expect(answers[3]?.error).toMatchObject({
      errno: 1620,
      message: expect.stringContaining('called again'),
    });
    expect(answers[4]?.warnings).toEqual([pluginBusy]);
  });

  test('leaves my.cnf without audit_uninstall_plugin, so the next start works', async () => {
    const server = mcafeeServer();
    await uninstallAudit(server);
    expect(server.config.has('audit_uninstall_plugin')).toBe(false);
    await expect(server.restart()).resolves.toBeUndefined();
  });

  test('the script reproduces the hazard: with the line left in, the next start fails', async () => {
    const server = mcafeeServer();
    await runSteps(server, mcafeeAudit.uninstall.slice(0, 5), 'Uninstalling AUDIT, stopping early');
    await expect(server.restart()).rejects.toThrow("unknown variable 'audit_uninstall_plugin=1'");
  });

  test('a plain UNINSTALL is refused with 1148, which is no allowed answer', async () => {
    const plain = [mcafeeAudit.uninstall[3], mcafeeAudit.uninstall[4]].filter((s) => s !== undefined);
    await expect(runSteps(mcafeeServer(), plain, 'Uninstalling AUDIT')).rejects.toThrow(
      /step 1 \(UNINSTALL PLUGIN AUDIT\).*ERROR 1148.*Uninstall AUDIT plugin disabled/,
    );
  });

  test('a second UNINSTALL that is refused again stops the procedure, naming the step', async () => {
    const server = mcafeeServer({
      secondUninstall: refuse(1620, 'Uninstall AUDIT plugin must be called again'),
    });
    await expect(uninstallAudit(server)).rejects.toThrow(
      'Uninstalling AUDIT failed at step 5 (UNINSTALL PLUGIN AUDIT) on mysql 8.0.35: ERROR 1620',
    );
    // Stopped there: my.cnf still holds the flag, which the report must show rather than hide.
    expect(server.lines()).toHaveLength(5);
    expect(server.config.get('audit_uninstall_plugin')).toBe('1');
  });

  test('a server that will not start after the my.cnf edit rejects with its error', async () => {
    const server = mcafeeServer({ initFails: true });
    const failure = uninstallAudit(server);
    await expect(failure).rejects.toThrow(/failed at step 3 \(restart the server\)/);
    await expect(failure).rejects.toThrow("unknown variable 'audit_uninstall_plugin=1'");
  });
});

test('the lifecycle uninstall check finds what the McAfee profile expects', async () => {
  const result = await lifecycleSteps.afterMeasure
    .find((step) => step.id === 'uninstall')
    ?.run(lifecycleContext(mcafeeServer(), mcafeeAudit));
  expect(result).toMatchObject({
    ok: true,
    observed: { warningCodes: [1620], needsRestart: false, stillLogs: false, restartsCleanly: true },
  });
});

describe('McAfee/Trellix install on a mysqld it has no offsets for', () => {
  test('INSTALL rejects with the server’s reason; the error log says why', async () => {
    const server = createFakeServer({
      info: { version: '8.0.99' },
      rules: [
        {
          match: "INSTALL PLUGIN AUDIT SONAME 'libaudit_plugin.so'",
          reply: ({ server: fake }) => {
            fake.logError("[ERROR] Trellix Audit Plugin: Couldn't find proper THD offsets for: 8.0.99");
            fake.logError("[ERROR] Plugin 'AUDIT' init function returned error.");
            return refuse(1123, "Can't initialize function 'AUDIT'; Plugin initialization function failed.");
          },
        },
      ],
    });
    await expect(runSteps(server, mcafeeAudit.install, 'Installing AUDIT')).rejects.toThrow(
      /Installing AUDIT failed at step 2 .* on mysql 8\.0\.99: ERROR 1123 .*Plugin initialization function failed/,
    );
    expect(await server.errorLogTail(5)).toContain("Couldn't find proper THD offsets for: 8.0.99");
  });
});

/** A server that, like mysqld, refuses to start on audit_log_* options while no plugin defines them. */
function strictOptionsServer(): FakeServer {
  return createFakeServer({
    info: { flavor: 'percona', version: '8.0.35-27' },
    onStart: ({ config }) => {
      const orphan = [...config.keys()].find(
        (k) => k.startsWith('audit_log_') && !config.has('plugin_load_add'),
      );
      return orphan
        ? `[ERROR] [MY-000067] [Server] unknown variable '${orphan}=${config.get(orphan)}'.`
        : undefined;
    },
  });
}

describe('Percona audit_log install and uninstall', () => {
  test.for(['OLD', 'NEW', 'JSON', 'CSV'] as const)(
    '%s: options into my.cnf, then one restart',
    async (format) => {
      const server = strictOptionsServer();
      await runSteps(server, perconaAuditLog(format).install, 'Installing audit_log');
      expect(server.lines()).toEqual([
        'my.cnf set plugin_load_add=audit_log=audit_log.so, audit_log_file=audit.log, ' +
          `audit_log_format=${format}, audit_log_strategy=ASYNCHRONOUS, ` +
          'audit_log_rotate_on_size=1073741824, audit_log_rotations=4',
        'restart',
      ]);
      expect(server.config.get('audit_log_format')).toBe(format);
    },
  );

  test('the strategy option reaches my.cnf', async () => {
    const server = strictOptionsServer();
    await runSteps(
      server,
      perconaAuditLog('CSV', { strategy: 'SYNCHRONOUS' }).install,
      'Installing audit_log',
    );
    expect(server.config.get('audit_log_strategy')).toBe('SYNCHRONOUS');
  });

  test('rotation for the checks goes through my.cnf and a restart', async () => {
    const server = strictOptionsServer();
    const profile = perconaAuditLog();
    await runSteps(server, profile.install, 'Installing audit_log');
    await runSteps(server, profile.log.rotation?.configure(16_384, 3) ?? [], 'Configuring rotation');
    expect(server.lines().slice(-2)).toEqual([
      'my.cnf set audit_log_rotate_on_size=16384, audit_log_rotations=3',
      'restart',
    ]);
  });

  test('uninstall takes every option out again, rotation included, so the server still starts', async () => {
    const server = strictOptionsServer();
    const profile = perconaAuditLog();
    await runSteps(server, profile.install, 'Installing audit_log');
    await runSteps(server, profile.log.rotation?.configure(16_384, 3) ?? [], 'Configuring rotation');
    await runSteps(server, profile.uninstall, 'Uninstalling audit_log');
    expect(server.lines().slice(-2)).toEqual([
      'SQL UNINSTALL PLUGIN audit_log',
      'my.cnf unset plugin_load_add, unset audit_log_file, unset audit_log_format, unset audit_log_strategy, ' +
        'unset audit_log_rotate_on_size, unset audit_log_rotations',
    ]);
    expect(server.config.size).toBe(0);
    await expect(server.restart()).resolves.toBeUndefined();
  });
});

describe('MySQL Enterprise Audit install and uninstall', () => {
  test('loads from my.cnf with JSON set before the first record, and leaves my.cnf as it found it', async () => {
    const server = createFakeServer({ config: { skip_name_resolve: null } });
    await runSteps(server, mysqlEnterpriseAudit.install, 'Installing audit_log');
    await runSteps(server, mysqlEnterpriseAudit.uninstall, 'Uninstalling audit_log');
    expect(server.lines()).toEqual([
      'my.cnf set plugin_load_add=audit_log.so, audit_log_format=JSON',
      'restart',
      'SQL UNINSTALL PLUGIN audit_log',
      'my.cnf unset plugin_load_add, unset audit_log_format',
    ]);
    expect([...server.config.keys()]).toEqual(['skip_name_resolve']);
  });
});
