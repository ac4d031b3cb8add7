import { describe, expect, test } from 'vitest';
import { borrowedPlugins, expectedOutcome } from '../fixtures/matrix.ts';
import { matrixProfiles } from '../fixtures/plugins/index.ts';
import { serverAudit } from '../fixtures/plugins/server-audit.ts';
import { loadConfig } from '../src/config/env.ts';
import { describeCell } from '../src/matrix/cell.ts';
import { runCell } from '../src/matrix/run-cell.ts';
import { probeStartupLoad } from '../src/matrix/startup-probe.ts';
import { matrixTargets } from '../src/matrix/targets.ts';
import { startServer } from '../src/servers/start-server.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// Every plugin × every server: works (with its overhead), incompatible (the server's reason), or crash loop.
const config = loadConfig();
const workload = getWorkload(config.workload);
const targets = await matrixTargets(config, borrowedPlugins);

describe('plugin × server compatibility matrix', () => {
  for (const target of targets) {
    describe(target.label, () => {
      for (const profile of matrixProfiles) {
        test(profile.title, async (context) => {
          if (target.unavailable) context.skip(target.unavailable);
          const log = (message: string) =>
            console.log(`[matrix · ${target.label} · ${profile.title}] ${message}`);
          await using server = await startServer(target.config, target.start);
          const limitPct = config.maxOverheadPct ?? profile.maxOverheadPct;
          const cell = await runCell(server, profile, {
            image: target.image,
            workload,
            limitPct,
            progress: log,
          });
          context.task.meta.auditbenchMatrix = cell;
          log(describeCell(cell));
          const expected = expectedOutcome(profile.title, profile.flavors, server.info);
          expect(cell.outcome, `${describeCell(cell)} (expected ${expected.outcome}: ${expected.why})`).toBe(
            expected.outcome,
          );
          if (cell.outcome === 'works') {
            expect(cell.lifecycleOk, 'every lifecycle check matches the profile').toBe(true);
            // One block per cell: an interval straddling the limit is reported, only a clear excess fails here.
            expect(cell.verdict, cell.reason).not.toBe('fail');
          }
        });
      }
    });
  }
});

// The seed's worst finding: a plugin build the server cannot run, loaded from my.cnf, made mysqld restart forever.
describe('crash loop', () => {
  const mysql = targets.find((t) => t.image?.includes('mysql') && !t.unavailable);
  test('a my.cnf that loads a plugin the server cannot start with is reported within 60 s', async (context) => {
    if (!mysql) {
      context.skip('needs a MySQL image in AUDITBENCH_IMAGES (auditbench/mysql:9.7) and a Docker engine');
      return;
    }
    await using server = await startServer(mysql.config, mysql.start);
    const probe = await probeStartupLoad(server, serverAudit);
    console.log(
      `[matrix · crash loop · ${mysql.label}] ${probe.outcome} after ${probe.elapsedMs} ms: ${probe.reason}`,
    );
    expect(probe.outcome).toBe('crash-loop');
    expect(probe.elapsedMs).toBeLessThan(60_000);
    expect(probe.reason).toMatch(/server_audit|server-audit/);
    // Put back as it was: the server answers again (MySQL returns the 1 as a string, MariaDB as a number).
    expect(Number((await server.query('SELECT 1 AS up')).rows[0]?.up)).toBe(1);
  });
});
