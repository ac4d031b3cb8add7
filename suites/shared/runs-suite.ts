import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import type { Outcome } from '../../src/orchestrate/outcome.ts';
import { runsOnServer } from '../../src/orchestrate/runs-on-server.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';

/**
 * Every run of the configuration on one server (src/orchestrate/runs-on-server.ts does the work): the tables are
 * loaded and the A/A noise calibrated once, then each run gets its lifecycle checks, its overhead gate at each point,
 * its counted cost and its uninstall. This file only declares the tests and hands each outcome to Vitest.
 */
export function runsSuite(config: Environment, runs: ResolvedRun[]): void {
  const session = runsOnServer(config, runs);
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
  });
}

/** An outcome as Vitest takes it: the record on task.meta, then a skip, the error, the failure or the comparisons. */
function settle(outcome: Outcome, context: TestContext): void {
  if (outcome.record) context.task.meta.auditbench = outcome.record;
  if (outcome.skip !== undefined) {
    context.skip(outcome.skip);
    return;
  }
  if (outcome.error !== undefined) throw outcome.error;
  if (outcome.failure !== undefined) expect.fail(outcome.failure);
  for (const { label, observed, expected } of outcome.expectations ?? [])
    expect(observed, label).toEqual(expected);
}
