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
import { comparisonSubject, unsetOnOneSide } from '../gate/arms.ts';
import { combineChannels, countsAlone, judgeCountedRise, type TwoChannelVerdict } from '../gate/channels.ts';
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
import { errorLine, type Outcome } from './outcome.ts';
import { measuringSeams } from './seams.ts';

// One comparison of the PR gate: a changed run's base and head configurations measured side by side on the gate's
// server (docs/gate.md): the head's plugin installed, the design the changed options allow, base against head in
// pairs, the wall clock's verdict and the counted channel's, recorded for the gate command, then the uninstall. A
// channel that fails gives way to the other: its one line says why, and the other's verdict stands alone.

/** One comparison: the plan's, its base and head runs, and the names of its two configurations. */
export interface BaseHead {
  comparison: Comparison;
  base: ResolvedRun;
  head: ResolvedRun;
  names: string;
}

/** The head's plugin in and the design its changed options allow: what both channels measure. */
interface SetUp {
  decision: DesignDecision;
  subject: MeasuredSubject;
  planned: Planned;
  traffic: MeasuredRunTraffic;
}

/** What the wall clock measured: its pairs and their estimate. */
interface Measured {
  sample: OverheadSample;
  estimate: ReturnType<typeof pairedOverhead>;
}

/** The wall clock's pairs, or the one line that says why it has none (and the error, should nothing else judge). */
type WallClock = Measured | { failed: string; error: unknown };

export async function compareBaseHead(on: OneServer, plan: GatePlanFile, pair: BaseHead): Promise<Outcome> {
  const { comparison, head } = pair;
  const progress = on.log(comparison.runId);
  await on.nextRun();
  const skip = await unavailableReason(on.started(), head.profile);
  if (skip) return { skip };
  progress(`${comparison.why}; ${comparison.differences.join(', ')}`);
  const setUp = await setUpBaseHead(on, plan, pair, progress);
  const wall: WallClock = await measureBaseHead(on, plan, pair, setUp, progress).catch((error: unknown) => {
    const failed = errorLine(error);
    progress(`wall clock failed: ${failed}`);
    return { failed, error };
  });
  const verdict = await judge(on, plan, pair, { setUp, wall }, progress);
  const measured = 'sample' in wall ? wall : null;
  if (verdict) {
    progress(`${verdict.verdict}: ${verdict.reason}`);
    // The verdict keeps τ (docs/gate.md); the run's own pairs say what more pairs bought.
    const { runToRunSdLog } = on.workload;
    await recordVerdict(plan.verdictsFile, {
      ...verdict,
      runId: comparison.runId,
      design: setUp.decision.design,
      designWhy: setUp.decision.why,
      pairs: measured?.estimate.pairCount ?? 0,
      withinRunCi95: measured && runToRunSdLog > 0 ? pairedOverhead(measured.sample.pairs).ci95 : null,
    });
  }
  await runSteps(on.started(), head.profile.uninstall, `Uninstalling ${head.profile.name}`).catch(
    (error: unknown) => progress(`uninstall: ${errorLine(error)}`),
  );
  // Neither channel judged: the wall clock's error is the comparison's.
  if (!verdict) return { error: 'error' in wall ? wall.error : new Error('no verdict') };
  return gateOutcome(verdict, plan.inconclusive);
}

/** A verdict that fails the gate as the failure line Vitest shows, with what to do about an inconclusive one. */
export function gateOutcome(verdict: BaseHeadVerdict, inconclusive: 'fail' | 'pass'): Outcome {
  if (!failsGate(verdict, inconclusive)) return {};
  const advice =
    verdict.verdict === 'inconclusive'
      ? " (inconclusive fails the gate: a longer workload narrows it, or set AUDITBENCH_GATE_INCONCLUSIVE=pass, or inconclusive: 'pass' in auditbench.config.ts)"
      : '';
  return { failure: `${verdict.reason}${advice}` };
}

/** The head's traffic and plugin in, then the design its changed options allow and the plan of its pairs. */
async function setUpBaseHead(
  on: OneServer,
  plan: GatePlanFile,
  pair: BaseHead,
  progress: Progress,
): Promise<SetUp> {
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
  return { decision, subject, planned, traffic };
}

/** Base against head in pairs, while the interval straddles the limit and the gate's budget lasts. */
async function measureBaseHead(
  on: OneServer,
  plan: GatePlanFile,
  { head }: BaseHead,
  { subject, planned, traffic }: SetUp,
  progress: Progress,
): Promise<Measured> {
  progress(
    `the gate's budget: ${planned.plan.budgetS} s (warm-up included), at most ${planned.plan.maxPairs} pairs, in blocks of ${planned.plan.pairs}`,
  );
  const sample = await measureOverhead(on.started(), subject, planned, {
    limitPct: plan.maxRegressionPp,
    progress,
    interference: head.policy.interference,
    ...measuringSeams(on.seams, traffic.runner),
  });
  const estimate = pairedOverhead(sample.pairs, { runToRunSdLog: on.workload.runToRunSdLog });
  return { sample, estimate };
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
 * wall clock's verdict, then the counted channel's on a counted server of its own (src/counted, docs/gate.md). A
 * count that throws is "not counted" and the wall clock decides alone; a wall clock that failed leaves the count to
 * decide alone; with neither, null.
 */
async function judge(
  on: OneServer,
  plan: GatePlanFile,
  pair: BaseHead,
  { setUp, wall }: { setUp: SetUp; wall: WallClock },
  progress: Progress,
): Promise<BaseHeadVerdict | TwoChannelVerdict | null> {
  const { head, names, comparison } = pair;
  if ('sample' in wall) {
    const silent = await silence(on, pair, setUp, wall);
    if (silent) return silent;
  }
  const wallClock =
    'sample' in wall
      ? judgeBaseHead(wall.estimate, plan.maxRegressionPp, names, {
          pairs: wall.estimate.pairCount,
          maxPairs: setUp.planned.plan.maxPairs,
          budgetS: setUp.planned.plan.budgetS,
          workload: on.workload.name,
        })
      : null;
  if (wallClock) progress(`wall clock ${wallClock.verdict}: ${wallClock.reason}`);
  const pairs = 'sample' in wall ? wall.sample.pairs : [];
  const counted = await on.seams
    .countComparison(
      on.config,
      head,
      {
        arms: setUp.subject.arms,
        design: setUp.decision.design,
        job: setUp.planned.job,
        wallClockTps: pairs.reduce((sum, p) => sum + p.offTps, 0) / Math.max(1, pairs.length) || null,
        progress,
      },
      on.seams,
    )
    .catch((error: unknown) => ({ notCounted: `not counted: ${errorLine(error)}` }));
  const countedVerdict =
    'notCounted' in counted
      ? { verdict: 'not counted' as const, reason: counted.notCounted }
      : judgeCountedRise(counted.figures.instructions, plan.maxCountedRisePp);
  if (wallClock) return combineChannels(wallClock, countedVerdict, comparison.differences);
  if (countedVerdict.verdict === 'not counted' || 'sample' in wall) return null;
  return countsAlone(wall.failed, countedVerdict, names);
}

/** The idle verdict when neither arm logged any of the traffic's events, asked of the server as bench asks it. */
async function silence(on: OneServer, { head, names }: BaseHead, setUp: SetUp, wall: Measured) {
  const runs = wall.sample.blocks.flatMap((b) => b.runs);
  if (!neitherArmLogged(runs, setUp.traffic.seen.accounts)) return null;
  const settings = { ...head.startupOptions, ...head.profile.measureSettings };
  const facts = await askWhySilent(on.started(), setUp.subject, head.profile, {
    settings,
    runs,
    traffic: setUp.traffic.seen,
  });
  const silent = explainSilence(head.profile, facts);
  return silentVerdict(wall.estimate, names, silent, silenceFails(silent.cause, head.policy.idle));
}
