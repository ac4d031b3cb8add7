import { loadConfig } from '../../src/config/env.ts';
import { loadRuns, loadTraffic } from '../../src/config/load-runs.ts';

/**
 * Vitest global setup: a bad AUDITBENCH_* value or configuration file stops the run with one line, before any server
 * starts.
 */
export default async function checkConfig(): Promise<void> {
  try {
    const config = loadConfig();
    await loadRuns(config);
    await loadTraffic(config);
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
