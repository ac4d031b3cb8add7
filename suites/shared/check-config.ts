import { loadConfig } from '../../src/config/env.ts';

/** Vitest global setup: a bad AUDITBENCH_* value stops the run with one line, before any server starts. */
export default function checkConfig(): void {
  try {
    loadConfig();
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
