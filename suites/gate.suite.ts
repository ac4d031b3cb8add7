import { afterAll, beforeAll, describe, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { readGatePlan } from '../src/gate/plan-file.ts';
import { gateOnServer, loadGateRuns } from '../src/orchestrate/gate-on-server.ts';
import { settle } from './shared/settle.ts';

// What `auditbench gate` selected (AUDITBENCH_GATE_PLAN): each changed run's base and head configurations measured
// side by side on one server, judged on the head's loss against the base (src/orchestrate/gate-on-server.ts does the
// work). New runs go through suites/runs.suite.ts. Outside the gate (`auditbench test` runs every suite) there is
// nothing to compare.
const planFile = process.env.AUDITBENCH_GATE_PLAN;
if (planFile) await gateSuite(planFile);
else test.skip('base beside head: only `auditbench gate` has a selection to measure', () => {});

async function gateSuite(planFile: string): Promise<void> {
  const plan = await readGatePlan(planFile);
  const session = gateOnServer(loadEnvironment(), plan, await loadGateRuns(plan));
  describe(session.title, () => {
    beforeAll(() => session.start());
    afterAll(() => session.stop());
    for (const comparison of session.comparisons) {
      test(comparison.title, async (context) => settle(await comparison.perform(), context));
    }
  });
}
