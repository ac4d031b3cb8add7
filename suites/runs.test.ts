import { profiles } from '../fixtures/plugins/index.ts';
import { loadConfig } from '../src/config/env.ts';
import { loadRuns } from '../src/config/load-runs.ts';
import { runsSuite } from './shared/runs-suite.ts';

// The runs of auditbench.config.ts (or AUDITBENCH_CONFIG), filtered by AUDITBENCH_RUNS: each plugin as configured.
const config = loadConfig();
runsSuite(config, await loadRuns(config, profiles));
