import type { Environment } from '../config/env.ts';
import { baseTreeResolver } from '../gate/base-paths.ts';
import type { GatePlanFile } from '../gate/plan-file.ts';
import { nameConfigurations } from '../gate/verdict.ts';
import { profiles } from '../profiles/index.ts';
import { loadRuns } from '../runs/load-runs.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { type BaseHead, compareBaseHead } from './gate-comparison.ts';
import { oneServer } from './one-server.ts';
import type { Outcome } from './outcome.ts';
import { liveSeams, type Seams } from './seams.ts';

// What `auditbench gate` selected: each changed run's base and head configurations measured side by side on one
// server, judged on the head's loss against the base (gate-comparison.ts). The server, its tables and the restart
// between comparisons are the runs' sequence's own (one-server.ts). New runs go through runs-on-server.ts.

export interface GateOnServer {
  title: string;
  start(): Promise<void>;
  comparisons: { title: string; perform(): Promise<Outcome> }[];
  stop(): Promise<void>;
}

/** The base's and the head's runs; the base's option files and scripts come from its own checkout (base-paths.ts). */
export interface GateRuns {
  base: ResolvedRun[];
  head: ResolvedRun[];
}

export async function loadGateRuns(plan: GatePlanFile): Promise<GateRuns> {
  const head = await loadRuns({ configPath: plan.headConfig, runIds: null }, profiles);
  const base = await loadRuns(
    { configPath: plan.baseConfig, runIds: null },
    profiles,
    plan.baseTree ? { resolveFile: baseTreeResolver(plan.baseTree) } : {},
  );
  return { base, head };
}

export function gateOnServer(
  config: Environment,
  plan: GatePlanFile,
  runs: GateRuns,
  seams: Partial<Seams> = {},
): GateOnServer {
  const on = oneServer(config, { ...liveSeams, ...seams }, (what) => `gate · ${what}`);
  const find = (side: ResolvedRun[], id: string, which: string): ResolvedRun => {
    const run = side.find((r) => r.id === id);
    if (!run)
      throw new Error(`The ${which} configuration does not declare run ${id}, which the gate selected`);
    return run;
  };
  const first = plan.comparisons[0];
  return {
    title: `${plan.comparisons.length} run(s), base beside head on one server, ${on.workload.name} workload`,
    // sysbench logs in as the harness's accounts, never root, as in the runs' sequence: a user filter in either
    // configuration then applies to the measured traffic as in production. The tables load as the first head's.
    async start() {
      await on.start();
      const accounts = first && find(runs.head, first.runId, "head's").traffic.accounts;
      await on.loadTables(accounts, on.log('server'));
    },
    comparisons: plan.comparisons.map((comparison) => {
      const names = nameConfigurations(comparison.runId, comparison.differences);
      const pair = (): BaseHead => ({
        comparison,
        names,
        base: find(runs.base, comparison.runId, `base's (${plan.baseRef})`),
        head: find(runs.head, comparison.runId, "head's"),
      });
      return {
        title: `${names}: the head costs at most ${plan.maxRegressionPp} points more than the base`,
        perform: () => compareBaseHead(on, plan, pair()),
      };
    }),
    stop: () => on.stop(),
  };
}
