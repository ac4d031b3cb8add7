import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generalLog } from '../fixtures/plugins/general-log.ts';
import { serverAudit } from '../fixtures/plugins/server-audit.ts';
import { defaultTraffic } from '../fixtures/traffic/default.ts';
import { loadConfig } from '../src/config/env.ts';
import { configHash } from '../src/history/config-hash.ts';
import { measurePerEvent } from '../src/per-event/measure-per-event.ts';
import { perEventPlans } from '../src/per-event/plan.ts';
import { rotationFromVariables } from '../src/per-event/rotation.ts';
import type { PluginProfile } from '../src/plugins/profile.ts';
import { runSteps, setGlobals } from '../src/plugins/steps.ts';
import { projectCost } from '../src/projection/project.ts';
import type { Traffic } from '../src/projection/traffic.ts';
import { describeMachine } from '../src/results/machine.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { unavailableReason } from './shared/availability.ts';

// Per-event cost (tinybench + mysql2, plugin off/on in ABBA pairs) and its projection onto production traffic, for
// the plugins CI measures: server_audit and the general log. One fresh server per plugin, about a minute each on smoke.
const config = loadConfig();
const plan = perEventPlans[config.workload];
// The lead wires AUDITBENCH_TRAFFIC and the config file's `traffic` into the config; until then the default profile.
const traffic: Traffic = defaultTraffic;

async function pluginVariables(
  server: StartedServer,
  profile: PluginProfile,
): Promise<Record<string, string>> {
  const { rows } = await server.query(`SHOW GLOBAL VARIABLES LIKE '${profile.variablesLike}'`);
  return Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
}

for (const profile of [serverAudit, generalLog]) {
  describe(`${profile.title}: cost per audited event`, () => {
    let server: StartedServer | undefined;
    let skipReason: string | null = null;
    const log = (message: string) => console.log(`[per-event · ${profile.title}] ${message}`);

    beforeAll(async () => {
      server = await startServer(config);
      skipReason = await unavailableReason(server, profile);
      if (skipReason) return;
      await runSteps(server, profile.install, `Installing ${profile.name}`);
      await runSteps(
        server,
        setGlobals(profile.measureSettings),
        `Applying ${profile.name} measuring settings`,
      );
    });
    afterAll(async () => {
      await server?.stop();
    });

    test(`µs and log bytes per event, projected onto '${traffic.name}'`, async (context) => {
      if (skipReason) context.skip(skipReason);
      if (!server) throw new Error('The server did not start; see the hook error');
      const sample = await measurePerEvent(server, profile, plan, log);
      const rotation = rotationFromVariables(await pluginVariables(server, profile));
      const projection = projectCost(sample.operations, traffic, rotation);
      context.task.meta.auditbench = {
        runId: profile.name.toLowerCase(),
        plugin: profile.name,
        title: profile.title,
        server: server.info,
        workload: config.workload,
        limitPct: config.maxOverheadPct ?? profile.maxOverheadPct,
        configHash: configHash(profile),
        machine: describeMachine(),
        kind: 'per-event',
        perEvent: { ...sample, segmentMs: plan.segmentMs, pairs: plan.pairs, rotation, traffic, projection },
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
      // The plugin is on for every audited operation, so every kind it logs must have written records.
      const logged = sample.operations.filter((o) => o.logBytesPerOp !== null && o.logBytesPerOp > 0);
      expect(logged.length, 'the plugin wrote no log records in the per-event measurement').toBeGreaterThan(
        0,
      );
    });
  });
}
