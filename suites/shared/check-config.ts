import type { TestProject } from 'vitest/node';
import { loadEnvironment } from '../../src/config/env.ts';
import { heldByAncestor, takeRunLock } from '../../src/lock/run-lock.ts';
import { provideMeasuredFolder } from '../../src/vitest/measured-folder.ts';

// A run waits this long for another to finish before it gives up, naming it.
const LOCK_WAIT_S = 2 * 60 * 60;

/**
 * Vitest global setup of the projects that start servers: settings once more (the plugin checked them before
 * anything was created), then the machine-wide run lock, so two runs never measure at once, and the invocation's
 * folder of measured runs, so a run is measured once (src/orchestrate/measured-once.ts).
 */
export default async function checkConfig(project: TestProject): Promise<() => Promise<void>> {
  try {
    loadEnvironment();
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  // A run nested in one of this run's tests goes on under the lock its ancestor holds.
  const release = (await heldByAncestor()) ? undefined : await lock();
  const removeMeasured = await provideMeasuredFolder(project);
  return async () => {
    await removeMeasured();
    await release?.();
  };
}

async function lock(): Promise<() => Promise<void>> {
  try {
    return await takeRunLock(LOCK_WAIT_S, (line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
