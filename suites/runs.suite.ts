import { fileURLToPath } from 'node:url';
import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { notMeasuredBy } from '../src/runs/runs.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { runsSuite } from './shared/runs-suite.ts';

// The runs of auditbench.config.ts (or AUDITBENCH_CONFIG), filtered by AUDITBENCH_RUNS: each plugin as configured.
const config = loadEnvironment();
const runs = await loadRuns(config, profiles);
// Outside `./auditbench bench` (AUDITBENCH_PLUGINS_ONLY), the example sweep (three server_audit configurations side
// by side) runs on the same server, so the example a DBA copies is known to work and the summary's ranking of
// variants is exercised on real figures (its points rank as variants). Its first run sweeps through the stock
// server_audit's own point, so the stock run is not measured a second time. Its other two runs, CONNECT-only with
// new connections added read from an option file, and DDL and DCL only with both added, are measured once in `test`
// by suites/pack-install.suite.ts's `pci` run (a production option file, connections, DDL and DCL added, under
// traffic accounts); an idle CONNECT-only run failing is suites/traffic.suite.ts's.
const measuredElsewhere = new Set(['server_audit-connect', 'server_audit-ddl-dcl']);
const sweep =
  process.env.AUDITBENCH_PLUGINS_ONLY === '1'
    ? []
    : (
        await loadRuns({ configPath: 'examples/server-audit-sweep.config.ts', runIds: null }, profiles)
      ).filter((run) => !measuredElsewhere.has(run.id));
runsSuite(
  config,
  [...notMeasuredBy(runs, sweep, getWorkload(config.workload).threads), ...sweep],
  fileURLToPath(import.meta.url),
);
