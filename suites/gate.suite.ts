import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { neitherArmLogged } from '../src/bench/audit-events.ts';
import { measureOverhead, type OverheadSample, prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { type Planned, planFor } from '../src/bench/measure-plan.ts';
import { explainSilence, silenceFails } from '../src/bench/silence.ts';
import { askWhySilent } from '../src/bench/silence-facts.ts';
import type { MeasuredSubject } from '../src/bench/subject.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { serverValueLiteral } from '../src/config/settings.ts';
import { countComparison } from '../src/counted/run-counted.ts';
import { comparisonSubject, unsetOnOneSide } from '../src/gate/arms.ts';
import { baseTreeResolver } from '../src/gate/base-paths.ts';
import { combineChannels, judgeCountedRise } from '../src/gate/channels.ts';
import { changedOptions, type DesignDecision, decideDesign } from '../src/gate/option-classes.ts';
import { readGatePlan, recordVerdict } from '../src/gate/plan-file.ts';
import { failsGate, judgeBaseHead, nameConfigurations, silentVerdict } from '../src/gate/verdict.ts';
import { unavailableReason } from '../src/plugins/availability.ts';
import { runSteps } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { readSystemVariables } from '../src/servers/system-variables.ts';
import { dropAccountsAndStop, trafficConnections } from '../src/servers/traffic-accounts.ts';
import { pairedOverhead } from '../src/stats/paired-overhead.ts';
import { measuredRunTraffic } from '../src/traffic/run-traffic.ts';
import { runnerAs } from '../src/workload/run-as.ts';
import { getWorkload } from '../src/workload/workloads.ts';

// What `auditbench gate` selected (AUDITBENCH_GATE_PLAN): each changed run's base and head configurations measured
// side by side on one server, judged on the head's loss against the base. New runs go through suites/runs.suite.ts.
// Outside the gate (`auditbench test` runs every suite) there is nothing to compare.
const planFile = process.env.AUDITBENCH_GATE_PLAN;
if (planFile) await gateSuite(planFile);
else test.skip('base beside head: only `auditbench gate` has a selection to measure', () => {});

async function gateSuite(planFile: string): Promise<void> {
  const config = loadEnvironment();
  const plan = await readGatePlan(planFile);
  const headRuns = await loadRuns({ configPath: plan.headConfig, runIds: null }, profiles);
  // The base's option files and scripts from its own checkout, whatever form their paths take (src/gate/base-paths.ts).
  const baseRuns = await loadRuns(
    { configPath: plan.baseConfig, runIds: null },
    profiles,
    plan.baseTree ? { resolveFile: baseTreeResolver(plan.baseTree) } : {},
  );
  const workload = getWorkload(config.workload);

  const find = (runs: ResolvedRun[], id: string, side: string): ResolvedRun => {
    const run = runs.find((r) => r.id === id);
    if (!run)
      throw new Error(`The ${side} configuration does not declare run ${id}, which the gate selected`);
    return run;
  };

  /** The server's own value of each setting only one side sets, so the other arm can put it back. */
  async function serverValues(server: StartedServer, names: string[]): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const name of names) {
      const { rows } = await server.query(`SELECT @@GLOBAL.${name} AS value`);
      const value = rows[0]?.value;
      values[name] = serverValueLiteral(value);
    }
    return values;
  }

  /** The wall clock's verdict, then the counted channel's on a counted server of its own (src/counted, docs/gate.md). */
  async function bothChannels(
    head: ResolvedRun,
    differences: readonly string[],
    m: {
      estimate: ReturnType<typeof pairedOverhead>;
      names: string;
      arms: MeasuredSubject['arms'];
      design: DesignDecision['design'];
      planned: Planned;
      sample: OverheadSample;
      progress: (message: string) => void;
    },
  ) {
    const wallClock = judgeBaseHead(m.estimate, plan.maxRegressionPp, m.names);
    m.progress(`wall clock ${wallClock.verdict}: ${wallClock.reason}`);
    const counted = await countComparison(config, head, {
      arms: m.arms,
      design: m.design,
      job: m.planned.job,
      wallClockTps:
        m.sample.pairs.reduce((sum, p) => sum + p.offTps, 0) / Math.max(1, m.sample.pairs.length) || null,
      progress: m.progress,
    });
    return combineChannels(
      wallClock,
      'notCounted' in counted
        ? { verdict: 'not counted', reason: counted.notCounted }
        : judgeCountedRise(counted.figures.instructions, plan.maxCountedRisePp),
      differences,
    );
  }

  describe(`${plan.comparisons.length} run(s), base beside head on one server, ${workload.name} workload`, () => {
    let server: StartedServer | undefined;
    let compared = 0;
    const log = (what: string) => (message: string) =>
      console.log(`[gate · ${what} · ${workload.name}] ${message}`);
    const started = (): StartedServer => {
      if (!server) throw new Error('The server did not start; see the error of the first test');
      return server;
    };

    // sysbench logs in as the harness's accounts, never root, as in the runs suite: a user filter in either
    // configuration then applies to the measured traffic as in production. The tables load as the first head's.
    beforeAll(async () => {
      server = await startServer(config);
      const first = plan.comparisons[0];
      const accounts = first && find(headRuns, first.runId, "head's").traffic.accounts;
      const runner = accounts && runnerAs((await trafficConnections(server, accounts)).application);
      await prepareMeasurement(server, planFor({ workload }), log('server'), runner);
    });
    afterAll(() => dropAccountsAndStop(server, log('server')));

    for (const comparison of plan.comparisons) {
      const names = nameConfigurations(comparison.runId, comparison.differences);
      test(`${names}: the head costs at most ${plan.maxRegressionPp} points more than the base`, async (context) => {
        const base = find(baseRuns, comparison.runId, `base's (${plan.baseRef})`);
        const head = find(headRuns, comparison.runId, "head's");
        const progress = log(comparison.runId);
        // The previous comparison's plugin may linger until a restart (MariaDB answers UNINSTALL with 1620).
        if (compared++ > 0) await started().restart();
        const skip = await unavailableReason(started(), head.profile);
        if (skip) context.skip(skip);
        progress(`${comparison.why}; ${comparison.differences.join(', ')}`);
        // The head's traffic (its accounts, added load, script): the one the branch will run under.
        const { application } = await trafficConnections(started(), head.traffic.accounts);
        const traffic = measuredRunTraffic(started(), head, {
          application,
          configPath: plan.headConfig,
        });
        // A head's script builds its own tables (beforeAll loaded the OLTP ones), as in the runs suite. Before the
        // install: its restarts then happen before the plugin is in.
        const tables = planFor({ workload, traffic: traffic.traffic, comparison: 'toggle' });
        if (tables.job.script) await prepareMeasurement(started(), tables, progress, traffic.runner);
        await runSteps(started(), head.profile.install, `Installing ${head.profile.name}`);
        // Changed startup options: the server, with the plugin in, says which it can switch while it runs.
        const changed = changedOptions(base.startupOptions, head.startupOptions);
        const decision: DesignDecision =
          changed.length > 0
            ? decideDesign(
                changed,
                await readSystemVariables(
                  started(),
                  changed.map((o) => o.name),
                ),
              )
            : { design: comparison.design, why: comparison.why, arms: null };
        progress(`measured ${decision.design}: ${decision.why}`);
        const subject = comparisonSubject(base, head, {
          design: decision.design,
          serverValues: await serverValues(started(), unsetOnOneSide(base, head)),
          switched: decision.arms,
        });
        const planned = planFor({
          workload,
          traffic: traffic.traffic,
          comparison: decision.design,
          arms: subject.arms,
        });
        const sample = await measureOverhead(started(), subject, planned, {
          limitPct: plan.maxRegressionPp,
          progress,
          interference: head.policy.interference,
          runner: traffic.runner,
        });
        const estimate = pairedOverhead(sample.pairs, { runToRunSdLog: workload.runToRunSdLog });
        const runs = sample.blocks.flatMap((b) => b.runs);
        // Neither arm logged the traffic: the interval priced plugins that wrote nothing, and counts would too.
        const silent = neitherArmLogged(runs, traffic.seen.accounts)
          ? explainSilence(
              head.profile,
              await askWhySilent(started(), subject, head.profile, {
                settings: { ...head.startupOptions, ...head.profile.measureSettings },
                runs,
                traffic: traffic.seen,
              }),
            )
          : null;
        const verdict = silent
          ? silentVerdict(estimate, names, silent, silenceFails(silent.cause, head.policy.idle))
          : await bothChannels(head, comparison.differences, {
              estimate,
              names,
              arms: subject.arms,
              design: decision.design,
              planned,
              sample,
              progress,
            });
        progress(`${verdict.verdict}: ${verdict.reason}`);
        // The verdict keeps τ (docs/gate.md); the run's own pairs say what more pairs bought.
        const withinRunCi95 = workload.runToRunSdLog > 0 ? pairedOverhead(sample.pairs).ci95 : null;
        await recordVerdict(plan.verdictsFile, {
          ...verdict,
          runId: comparison.runId,
          design: decision.design,
          designWhy: decision.why,
          pairs: estimate.pairCount,
          withinRunCi95,
        });
        await runSteps(started(), head.profile.uninstall, `Uninstalling ${head.profile.name}`).catch(
          (error: unknown) =>
            progress(`uninstall: ${error instanceof Error ? error.message : String(error)}`),
        );
        if (failsGate(verdict, plan.inconclusive)) {
          const advice =
            verdict.verdict === 'inconclusive'
              ? ' (inconclusive fails the gate: a longer workload narrows it, or set inconclusive: "pass" in auditbench.config.ts)'
              : '';
          expect.fail(`${verdict.reason}${advice}`);
        }
      });
    }
  });
}
