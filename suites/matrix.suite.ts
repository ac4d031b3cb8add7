import { describe, expect, test } from 'vitest';

import { loadEnvironment } from '../src/config/env.ts';
import { describeCell, unavailableCell } from '../src/matrix/cell.ts';
import { planMatrix } from '../src/matrix/cell-plan.ts';
import { borrowedPlugins, expectedOutcome, matrixProfiles } from '../src/matrix/expectations.ts';
import { runCell } from '../src/matrix/run-cell.ts';
import { probeStartupLoad } from '../src/matrix/startup-probe.ts';
import { type MatrixTarget, matrixTargets } from '../src/matrix/targets.ts';
import { profiles } from '../src/profiles/index.ts';
import { serverAudit } from '../src/profiles/server-audit.ts';
import { startServer } from '../src/servers/start-server.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// Plugins × servers: works (with its overhead), incompatible (the server's reason), or crash loop. Which cells
// AUDITBENCH_MATRIX says: `./auditbench test` measures a sample (src/matrix/cell-plan.ts), `auditbench matrix` all.
const config = loadEnvironment();
const workload = getWorkload(config.workload);
// AUDITBENCH_DOCKER=0 is the user's opt-out of containers (scripts/setup.sh reads it too).
const targets = await matrixTargets(config, borrowedPlugins(profiles), {
  optedOut: config.dockerOptOut,
});
const plan = planMatrix(targets, matrixProfiles(profiles), config.matrix);

/** A requested server that never ran: the reason, then the evidence (build log or start log), for the failure. */
function unavailableMessage(target: MatrixTarget): string {
  const u = target.unavailable;
  if (!u) return '';
  const tail = u.details.length > 0 ? `\n${u.details.map((line) => `  | ${line}`).join('\n')}` : '';
  return `${u.image} was requested (AUDITBENCH_IMAGES) and cannot be tried: ${u.reason}${tail}`;
}

/** Starts the target's server; a start that fails makes the cell 'unavailable' with the error before failing. */
async function startOrRecord(target: MatrixTarget, plugin: string, meta: { auditbenchMatrix?: unknown }) {
  try {
    return await startServer(target.config, target.start);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const [first = message, ...rest] = message.split('\n');
    if (target.image)
      meta.auditbenchMatrix = unavailableCell(plugin, {
        image: target.image,
        reason: `the server did not start: ${first}`,
        details: rest.slice(-20),
      });
    throw error;
  }
}

describe('plugin × server compatibility matrix', () => {
  for (const target of targets) {
    const cells = plan.cells.filter((cell) => cell.target === target);
    if (cells.length === 0) continue;
    describe(target.label, () => {
      for (const { profile, measure } of cells) {
        test(profile.title, async (context) => {
          if (target.unavailable) {
            // Still a column: the reason is in the matrix and the closing lines, and the run fails unless opted out.
            context.task.meta.auditbenchMatrix = unavailableCell(profile.title, target.unavailable);
            if (target.optedOut) context.skip(target.unavailable.reason);
            throw new Error(unavailableMessage(target));
          }
          const log = (message: string) =>
            console.log(`[matrix · ${target.label} · ${profile.title}] ${message}`);
          const starting = Date.now();
          await using server = await startOrRecord(target, profile.title, context.task.meta);
          log(`${server.info.version} answered in ${((Date.now() - starting) / 1000).toFixed(1)} s`);
          const limitPct = profile.maxOverheadPct;
          const measured = await runCell(server, profile, {
            image: target.image,
            workload,
            limitPct,
            progress: log,
            measure,
          });
          const cell = { ...measured, server: { ...measured.server, imageBuild: target.build } };
          context.task.meta.auditbenchMatrix = cell;
          log(describeCell(cell));
          const expected = expectedOutcome(profile, server.info);
          expect(cell.outcome, `${describeCell(cell)} (expected ${expected.outcome}: ${expected.why})`).toBe(
            expected.outcome,
          );
          if (cell.outcome === 'works') {
            expect(cell.lifecycleOk, 'every lifecycle check matches the profile').toBe(true);
            expect(cell.overheadPct === null, `measured: ${measure}`).toBe(!measure);
            // One block per cell: an interval straddling the limit is reported, only a clear excess fails here.
            expect(cell.verdict, cell.reason).not.toBe('fail');
          }
        });
      }
    });
  }
});

// The seed's worst finding: a plugin build the server cannot run, loaded from my.cnf, made mysqld restart forever.
describe.runIf(plan.crashLoop)('crash loop', () => {
  const mysql = targets.find((t) => t.image?.includes('mysql'));
  test('a my.cnf that loads a plugin the server cannot start with is reported within 60 s', async (context) => {
    if (!mysql) {
      context.skip('needs a MySQL image in AUDITBENCH_IMAGES (auditbench/mysql:9.7) and a Docker engine');
      return;
    }
    if (mysql.unavailable) {
      if (mysql.optedOut) context.skip(mysql.unavailable.reason);
      throw new Error(unavailableMessage(mysql));
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
