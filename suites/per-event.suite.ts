import { afterAll, beforeAll, describe, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import type { ProjectionTraffic } from '../src/config/projection-traffic.ts';
import { perEventRun } from '../src/orchestrate/per-event-run.ts';
import { perEventPlans } from '../src/per-event/plan.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadProjectionTraffic, loadRuns } from '../src/runs/load-runs.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { dropTrafficAccounts } from '../src/servers/traffic-accounts.ts';
import { settle } from './shared/settle.ts';

// Per-event cost (tinybench + mysql2, plugin off/on in ABBA pairs) and its projection onto production traffic, for
// every configured run this server can try (CI: server_audit, SQL_ERROR_LOG, the general log), about a minute each on
// smoke (src/orchestrate/per-event-run.ts does the work). Records carry the run's id, so the report puts them beside
// that run's sysbench figure for the cross-check.
const config = loadEnvironment();
const runs = await loadRuns(config, profiles);
const plan = perEventPlans[config.workload];
// The configuration file's `traffic`, else the illustrative default.
const traffic: ProjectionTraffic = await loadProjectionTraffic(config);

describe(`cost per audited event, ${config.workload} plan`, () => {
  let server: StartedServer | undefined;
  beforeAll(async () => {
    server = await startServer(config);
  });
  afterAll(async () => {
    if (server) await dropTrafficAccounts(server);
    await server?.stop();
  });

  for (const run of runs) {
    const log = (message: string) => console.log(`[per-event · ${run.title}] ${message}`);
    test(`${run.title}: µs and log bytes per event, projected onto '${traffic.name}'`, async (context) => {
      if (!server) throw new Error('The server did not start; see the hook error');
      const options = { workload: config.workload, plan, traffic, log };
      settle(await perEventRun(server, run, options), context);
    });
  }
});
