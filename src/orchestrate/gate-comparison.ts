import { neitherArmLogged } from '../bench/audit-events.ts';
import {
  measureOverhead,
  type OverheadSample,
  type Progress,
  prepareMeasurement,
} from '../bench/measure-overhead.ts';
import { type Planned, planFor } from '../bench/measure-plan.ts';
import { explainSilence, silenceFails } from '../bench/silence.ts';
import { askWhySilent } from '../bench/silence-facts.ts';
import type { MeasuredSubject } from '../bench/subject.ts';
import { countComparison } from '../counted/run-counted.ts';
import { comparisonSubject, unsetOnOneSide } from '../gate/arms.ts';
import { combineChannels, judgeCountedRise } from '../gate/channels.ts';
import { changedOptions, type DesignDecision, decideDesign } from '../gate/option-classes.ts';
import { type Comparison, type GatePlanFile, recordVerdict } from '../gate/plan-file.ts';
import { type BaseHeadVerdict, failsGate, judgeBaseHead, silentVerdict } from '../gate/verdict.ts';
import { unavailableReason } from '../plugins/availability.ts';
import { runSteps } from '../plugins/steps.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { readGlobalValues, readSystemVariables } from '../servers/system-variables.ts';
import { pairedOverhead } from '../stats/paired-overhead.ts';
import type { MeasuredRunTraffic } from '../traffic/run-traffic.ts';
import type { OneServer } from './one-server.ts';
import type { Outcome } from './outcome.ts';
import { measuringSeams } from './seams.ts';

// One comparison of the PR gate: a changed run's base and head configurations measured side by side on the gate's
// server (docs/gate.md): the head's plugin installed, the design the changed options allow, base against head in
// pairs, the wall clock's verdict and the counted channel's, recorded for the gate command, then the uninstall.

/** One comparison: the plan's, its base and head runs, and the names of its two configurations. */
export interface BaseHead {
  comparison: Comparison;
  base: ResolvedRun;
  head: ResolvedRun;
  names: string;
}

/** What one comparison measured: its design, its arms, its plan and its pairs. */
interface Measured {
  decision: DesignDecision;
  subject: MeasuredSubject;
  planned: Planned;
  sample: OverheadSample;
  estimate: ReturnType<typeof pairedOverhead>;
  traffic: MeasuredRunTraffic;
}

export async function compareBaseHead(on: OneServer, plan: GatePlanFile, pair: BaseHead): Promise<Outcome> {
  const { comparison, head } = pair;
  const progress = on.log(comparison.runId);
  await on.nextRun();
  const skip = await unavailableReason(on.started(), head.profile);
  if (skip) return { skip };
  progress(`${comparison.why}; ${comparison.differences.join(', ')}`);
  const measured = await measureBaseHead(on, plan, pair, progress);
  const verdict = await judge(on, plan, pair, measured, progress);
  progress(`${verdict.verdict}: ${verdict.reason}`);
  // The verdict keeps τ (docs/gate.md); the run's own pairs say what more pairs bought.
  const { runToRunSdLog } = on.workload;
  await recordVerdict(plan.verdictsFile, {
    ...verdict,
    runId: comparison.runId,
    design: measured.decision.design,
    designWhy: measured.decision.why,
    pairs: measured.estimate.pairCount,
    withinRunCi95: runToRunSdLog > 0 ? pairedOverhead(measured.sample.pairs).ci95 : null,
  });
  await runSteps(on.started(), head.profile.uninstall, `Uninstalling ${head.profile.name}`).catch(
    (error: unknown) => progress(`uninstall: ${error instanceof Error ? error.message : String(error)}`),
  );
  return gateOutcome(verdict, plan.inconclusive);
}

/** A verdict that fails the gate as the failure line Vitest shows, with what to do about an inconclusive one. */
export function gateOutcome(verdict: BaseHeadVerdict, inconclusive: 'fail' | 'pass'): Outcome {
  if (!failsGate(verdict, inconclusive)) return {};
  const advice =
    verdict.verdict === 'inconclusive'
      ? ' (inconclusive fails the gate: a longer workload narrows it, or set inconclusive: "pass" in auditbench.config.ts)'
      : '';
  return { failure: `${verdict.reason}${advice}` };
}

/** The head's traffic and plugin in, the design its changed options allow, then base against head in pairs. */
async function measureBaseHead(
  on: OneServer,
  plan: GatePlanFile,
  pair: BaseHead,
  progress: Progress,
): Promise<Measured> {
  const { base, head } = pair;
  const server = on.started();
  // The head's traffic (its accounts, added load, script): the one the branch will run under.
  const traffic = (await on.traffic(head, plan.headConfig)).measured();
  // A head's script builds its own tables (the start loaded the OLTP ones), as in the runs' sequence. Before the
  // install: its restarts then happen before the plugin is in.
  const tables = planFor({ workload: on.workload, traffic: traffic.traffic, comparison: 'toggle' });
  if (tables.job.script) await prepareMeasurement(server, tables, progress, traffic.runner);
  await runSteps(server, head.profile.install, `Installing ${head.profile.name}`);
  const decision = await designOf(on, pair);
  progress(`measured ${decision.design}: ${decision.why}`);
  const subject = comparisonSubject(base, head, {
    design: decision.design,
    serverValues: await readGlobalValues(server, unsetOnOneSide(base, head)),
    switched: decision.arms,
  });
  const planned = planFor({
    workload: on.workload,
    traffic: traffic.traffic,
    comparison: decision.design,
    arms: subject.arms,
  });
  const sample = await measureOverhead(server, subject, planned, {
    limitPct: plan.maxRegressionPp,
    progress,
    interference: head.policy.interference,
    ...measuringSeams(on.seams, traffic.runner),
  });
  const estimate = pairedOverhead(sample.pairs, { runToRunSdLog: on.workload.runToRunSdLog });
  return { decision, subject, planned, sample, estimate, traffic };
}

/** Changed startup options: the server, with the plugin in, says which it can switch while it runs. */
async function designOf(on: OneServer, { comparison, base, head }: BaseHead): Promise<DesignDecision> {
  const changed = changedOptions(base.startupOptions, head.startupOptions);
  if (changed.length === 0) return { design: comparison.design, why: comparison.why, arms: null };
  const names = changed.map((option) => option.name);
  return decideDesign(changed, await readSystemVariables(on.started(), names));
}

/**
 * Neither arm logged the traffic: the interval priced plugins that wrote nothing, and counts would too. Else the
 * wall clock's verdict, then the counted channel's on a counted server of its own (src/counted, docs/gate.md).
 */
async function judge(on: OneServer, plan: GatePlanFile, pair: BaseHead, m: Measured, progress: Progress) {
  const { head, names, comparison } = pair;
  const { estimate } = m;
  const runs = m.sample.blocks.flatMap((b) => b.runs);
  if (neitherArmLogged(runs, m.traffic.seen.accounts)) {
    const settings = { ...head.startupOptions, ...head.profile.measureSettings };
    const facts = await askWhySilent(on.started(), m.subject, head.profile, {
      settings,
      runs,
      traffic: m.traffic.seen,
    });
    const silent = explainSilence(head.profile, facts);
    return silentVerdict(estimate, names, silent, silenceFails(silent.cause, head.policy.idle));
  }
  const wallClock = judgeBaseHead(estimate, plan.maxRegressionPp, names);
  progress(`wall clock ${wallClock.verdict}: ${wallClock.reason}`);
  const pairs = m.sample.pairs;
  const counted = await countComparison(on.config, head, {
    arms: m.subject.arms,
    design: m.decision.design,
    job: m.planned.job,
    wallClockTps: pairs.reduce((sum, p) => sum + p.offTps, 0) / Math.max(1, pairs.length) || null,
    progress,
  });
  const countedVerdict =
    'notCounted' in counted
      ? { verdict: 'not counted' as const, reason: counted.notCounted }
      : judgeCountedRise(counted.figures.instructions, plan.maxCountedRisePp);
  return combineChannels(wallClock, countedVerdict, comparison.differences);
}
