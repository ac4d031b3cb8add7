import type { LifecycleStep } from '../plugins/lifecycle/index.ts';
import type { ResultRecord } from '../results/task-meta.ts';
import type { Outcome } from './outcome.ts';
import type { RunContext } from './run-state.ts';

/** A lifecycle check: its record, and its expectation compared or its one-line failure. */
export async function lifecycleCheck(ctx: RunContext, step: LifecycleStep): Promise<Outcome> {
  const { run } = ctx.id;
  const key = () => ctx.id.resultKey(ctx.on.started().info);
  try {
    const result = await step.run(ctx.state.lifecycle);
    const record: ResultRecord = { ...key(), kind: 'lifecycle', check: result };
    const failure = (result.details as { failure?: unknown } | undefined)?.failure;
    if (!result.ok && typeof failure === 'string') return { record, failure: `${run.id}: ${failure}` };
    const label = `${run.title}: ${result.check}`;
    return { record, expectations: [{ label, observed: result.observed, expected: result.expected }] };
  } catch (error) {
    const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
    const check = { check: step.id, expected: 'completes', observed, ok: false };
    return { record: { ...key(), kind: 'lifecycle', check }, error };
  }
}
