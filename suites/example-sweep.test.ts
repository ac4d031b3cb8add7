import { profiles } from '../fixtures/plugins/index.ts';
import { loadConfig } from '../src/config/env.ts';
import { loadRuns } from '../src/config/load-runs.ts';
import { runsSuite } from './shared/runs-suite.ts';

// The example sweep (three server_audit configurations side by side) runs in `./auditbench test`, so the example a
// DBA copies is known to work and the summary's ranking of variants is exercised on real figures.
const config = loadConfig();
runsSuite(
  config,
  await loadRuns({ configPath: 'examples/server-audit-sweep.config.ts', runIds: null }, profiles),
);
