import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { completenessSuite } from './shared/completeness-suite.ts';

/**
 * Does the plugin lose, duplicate or tear events? For every run of the configuration, markers of every kind, counted
 * in every log file: quiet, under sysbench with the log rotating, and across a SIGKILL (suites/shared/completeness-suite.ts,
 * src/completeness). One fresh server per run.
 */
const config = loadEnvironment();
const workload = getWorkload(config.workload);

for (const run of await loadRuns(config, profiles)) completenessSuite(run, config, workload);
