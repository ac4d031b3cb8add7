import { describe, expect, test } from 'vitest';
import { mergeMeasuredTraffic } from '../config/measured-traffic.ts';
import { resolveRun } from '../runs/runs.ts';
import { serverAudit, uninstallExpectations } from './server-audit.ts';

describe("server_audit's UNINSTALL under the options in force", () => {
  test.for([
    [{}, null],
    [{ thread_handling: 'pool-of-threads' }, null],
    [{ sync_binlog: '1', innodb_flush_log_at_trx_commit: '1' }, null],
    [{ log_bin: 'mariadb-bin' }, 'log_bin=mariadb-bin'],
    [{ log_bin: 'ON' }, 'log_bin'],
    [{ log_bin: 'OFF' }, null],
    [{ log_bin: 'mariadb-bin', skip_log_bin: 'ON' }, null],
  ] as const)('%o defers it: %s', ([settings, option]) => {
    const derived = uninstallExpectations(settings);
    if (option === null) expect(derived).toEqual({});
    else {
      expect(derived.uninstall).toMatchObject({ warningCodes: [1620], needsRestart: true, stillLogs: false });
      expect(derived.uninstall?.deferredBy).toMatch(
        new RegExp(`^${option}: observed on MariaDB 10\\.11\\.19`),
      );
    }
  });

  test("a production binary log path, moved into the run's datadir, sets the expectation by the name it runs under", () => {
    const run = resolveRun(
      { plugin: 'server_audit', startupOptions: { log_bin: '/var/log/mysql/mariadb-bin', server_id: 1 } },
      serverAudit,
      null,
      mergeMeasuredTraffic(undefined, undefined, null),
    );
    expect(run.profile.expected.uninstall.needsRestart).toBe(true);
    expect(run.profile.expected.uninstall.deferredBy).toMatch(/^log_bin=mariadb-bin: /);
  });
});
