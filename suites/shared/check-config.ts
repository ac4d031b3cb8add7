import { loadEnvironment } from '../../src/config/env.ts';
import { heldByAncestor, takeRunLock } from '../../src/lock/run-lock.ts';

// A run waits this long for another to finish before it gives up, naming it.
const LOCK_WAIT_S = 2 * 60 * 60;

/**
 * Vitest global setup of the projects that start servers: settings once more (the plugin checked them before
 * anything was created), then the machine-wide run lock, so two runs never measure at once.
 */
export default async function checkConfig(): Promise<(() => Promise<void>) | undefined> {
  try {
    loadEnvironment();
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  // A run nested in one of this run's tests goes on under the lock its ancestor holds.
  if (await heldByAncestor()) return undefined;
  try {
    return await takeRunLock(LOCK_WAIT_S, (line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
