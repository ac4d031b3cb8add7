import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { runsOnServer } from '../../src/orchestrate/runs-on-server.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { measuredOnceHere } from '../../src/vitest/measured-folder.ts';
import { settle } from './settle.ts';

/**
 * Every run of the configuration on one server (src/orchestrate/runs-on-server.ts does the work): the tables are
 * loaded and the A/A noise calibrated once, then each run gets its lifecycle checks, its overhead gate at each point,
 * the machine's rates for its count and its uninstall; after the last run, the counts, several at once. This file only declares the tests and hands each outcome to Vitest.
 */
export function runsSuite(config: Environment, runs: ResolvedRun[], file: string): void {
  // A run another file of this invocation measured (a DBA's bench.run()) is not measured again.
  const session = runsOnServer(config, runs, {}, measuredOnceHere(file));
  describe(session.title, () => {
    beforeAll(() => session.start());
    afterAll(() => session.stop());
    test(session.firstTitle, async (context) => settle(await session.prepare(), context));
    for (const run of session.runs) {
      describe(run.heading, () => {
        beforeAll(() => run.open());
        for (const planned of run.tests) {
          test(planned.title, async (context) => settle(await run.perform(planned), context));
        }
        afterAll(() => run.close());
      });
    }
    // After every wall clock: the counts share the CPUs with each other only (counted-cost.ts).
    if (session.counts.length > 0) {
      describe(session.countsTitle, () => {
        for (const counted of session.counts) {
          test.concurrent(counted.title, async (context) => settle(await counted.perform(), context));
        }
      });
    }
  });
}
