import { loadConfig } from '../../src/config/env.ts';
import { loadRuns } from '../../src/config/load-runs.ts';

/**
 * Vitest global setup: a bad AUDITBENCH_* value or configuration file stops the run with one line, before any server
 * starts.
 */
export default async function checkConfig(): Promise<void> {
  try {
    await loadRuns(loadConfig());
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
