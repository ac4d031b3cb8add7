import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import type { ProjectionTraffic } from '../src/config/projection-traffic.ts';
import { measurePerEvent } from '../src/per-event/measure-per-event.ts';
import { perEventPlans } from '../src/per-event/plan.ts';
import { rotationFromVariables } from '../src/per-event/rotation.ts';
import { unavailableReason } from '../src/plugins/availability.ts';
import { expectationsOn } from '../src/plugins/profile.ts';
import { runSteps, setGlobals } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import { projectCost } from '../src/projection/project.ts';
import { loadProjectionTraffic, loadRuns } from '../src/runs/load-runs.ts';
import { resultKey } from '../src/runs/result-key.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { dropTrafficAccounts, trafficConnections } from '../src/servers/traffic-accounts.ts';

// Per-event cost (tinybench + mysql2, plugin off/on in ABBA pairs) and its projection onto production traffic, for
// every configured run this server can try (CI: server_audit, SQL_ERROR_LOG, the general log), about a minute each on
// smoke. Records carry the run's id, so the report puts them beside that run's sysbench figure for the cross-check.
const config = loadEnvironment();
const runs = await loadRuns(config, profiles);
const plan = perEventPlans[config.workload];
// The configuration file's `traffic`, else the illustrative default.
const traffic: ProjectionTraffic = await loadProjectionTraffic(config);

async function pluginVariables(server: StartedServer, like: string): Promise<Record<string, string>> {
  const { rows } = await server.query(`SHOW GLOBAL VARIABLES LIKE '${like}'`);
  return Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
}

describe(`cost per audited event, ${config.workload} plan`, () => {
  let server: StartedServer | undefined;
  beforeAll(async () => {
    server = await startServer(config);
  });
  afterAll(async () => {
    if (server) await dropTrafficAccounts(server);
    await server?.stop();
  });

  for (const run of runs) measureRun(run);

  function measureRun(run: ResolvedRun): void {
    const { profile } = run;
    const log = (message: string) => console.log(`[per-event · ${run.title}] ${message}`);
    test(`${run.title}: µs and log bytes per event, projected onto '${traffic.name}'`, async (context) => {
      if (!server) throw new Error('The server did not start; see the hook error');
      const skipReason = await unavailableReason(server, profile);
      if (skipReason) context.skip(skipReason);
      // The operations log in as the application account: a filter that leaves it out would price events never logged.
      if (run.userFilter?.refusal) expect.fail(`${run.id}: ${run.userFilter.refusal}`);
      await runSteps(server, profile.install, `Installing ${profile.name}`);
      try {
        await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
        // The operations log in as the run's application account, as the measured traffic does.
        const { application } = await trafficConnections(server, run.traffic.accounts);
        const sample = await measurePerEvent(server, profile, { plan, progress: log, as: application });
        const rotation = rotationFromVariables(await pluginVariables(server, profile.variablesLike));
        const projection = projectCost(sample.operations, traffic, rotation);
        context.task.meta.auditbench = {
          ...resultKey(run, server.info, {
            workload: config.workload,
            limitPct: run.maxOverheadPct,
          }),
          kind: 'per-event',
          perEvent: {
            ...sample,
            segmentMs: plan.segmentMs,
            pairs: plan.pairs,
            rotation,
            traffic,
            projection,
          },
        };
        for (const o of sample.operations) {
          const ci = o.addedCi95Us ? ` [${o.addedCi95Us.map((v) => v.toFixed(1)).join(', ')}]` : '';
          log(
            `${o.kind}: ${o.offUs.toFixed(0)} → ${o.onUs.toFixed(0)} µs, +${o.addedUs.toFixed(1)} µs${ci}, ${o.eventsPerOp ?? '?'} events, ${o.logBytesPerOp?.toFixed(0) ?? '?'} B per op`,
          );
        }
        log(
          `projection: ${projection.cpuCoresPeak.toFixed(3)} cores at peak, ${projection.logGbPerDay.toFixed(1)} GB/day, ${JSON.stringify(projection.disk)}`,
        );
        // Every run logs something (queries, errors or logins): a run that wrote nothing measured nothing.
        const wrote = sample.operations.some((o) => (o.logBytesPerOp ?? 0) > 0);
        expect(wrote, `${run.title} wrote no log bytes in the per-event measurement`).toBe(true);
      } finally {
        // The next run gets the server without this plugin (a built-in has no uninstall steps).
        await runSteps(server, profile.disable, `Turning ${profile.name} off`);
        if (expectationsOn(profile, server.info.flavor).uninstall.crashes) {
          // Its uninstall takes the server down (the runs suite records that as a finding): leave it installed, off.
          log('not uninstalled: its uninstall crashes this server (see the runs suite); restarting instead');
          await server.restart();
        } else await runSteps(server, profile.uninstall, `Uninstalling ${profile.name}`);
      }
    });
  }
});
