import { lifecycleContext, lifecycleSteps } from '../../src/plugins/lifecycle/index.ts';
import type { LifecycleCheck } from '../../src/results/lifecycle-check.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import type { AccountSession } from '../../src/servers/account-session.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';

const steps = [...lifecycleSteps.beforeMeasure, ...lifecycleSteps.afterMeasure];

/** Every check in order; one that throws is recorded, and the uninstall still runs so the next starts clean. */
export async function everyCheck(
  server: StartedServer,
  [checks, application]: [AccountSession, AccountSession],
  run: ResolvedRun,
): Promise<LifecycleCheck[]> {
  const ctx = lifecycleContext(server, run.profile, {
    checks,
    application,
    ...(run.userFilter ? { audited: run.userFilter.audited, refusal: run.userFilter.refusal } : {}),
  });
  const results: LifecycleCheck[] = [];
  for (const step of steps) {
    try {
      results.push(await step.run(ctx));
    } catch (error) {
      const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
      results.push({ check: step.id, expected: 'completes', observed, ok: false });
      const uninstall = lifecycleSteps.afterMeasure[0];
      if (uninstall && step !== uninstall) await uninstall.run(ctx).catch(() => undefined);
      break;
    }
  }
  return results;
}
