import type { TestContext } from 'vitest';
import type { Outcome } from '../../src/orchestrate/outcome.ts';

/**
 * An outcome as Vitest takes it: the record on task.meta, then a skip, the error, the failure or the comparisons.
 * The test's own `expect`, as a concurrent test needs (the runs suite's counts).
 */
export function settle(outcome: Outcome, context: TestContext): void {
  const { expect } = context;
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
