import type { ArmSteps, ComparisonDesign } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import { judgeComparable } from '../counted/comparable.ts';
import { addedRecord, countedRecord, describeCounted } from '../counted/count-run.ts';
import {
  type CountedAdded,
  type CountedPlan,
  type CountedSubject,
  countedJob,
  defaultCountedPlan,
} from '../counted/counted-ab.ts';
import { countedIdentity } from '../counted/identity.ts';
import { countedAdded, countedUnavailable, type WallClockFigures } from '../counted/run-counted.ts';
import { noThreadsRefusal, threadHandlingOf } from '../counted/thread-handling.ts';
import { realClock } from '../machine/clock.ts';
import { setGlobals } from '../plugins/steps.ts';
import type { CountedRecord } from '../results/counted-record.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { trafficConnections } from '../servers/traffic-accounts.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import { countArms, startCountedServer } from './counted-sequence.ts';
import type { CountedSeams } from './seams.ts';

// A counted A/B from start to record, and the two counts composed of it: a run's plugin off against on
// (counted-cost.ts) and a gate comparison's base against head (gate-comparison.ts, through the seams).

export interface CountRunOptions {
  subject: CountedSubject;
  /** The plugin library the identity hashes (null for a built-in). */
  soname: string | null;
  configHash: string | null;
  plan: CountedPlan;
  /** How the counted server's traffic logs in: the run's application account, created on that server. */
  application: (server: StartedServer) => Promise<ConnectionOptions>;
  /** traffic.added, sent per transaction (null: none, or no wall-clock throughput to scale it by). */
  added?: CountedAdded | null;
  /** The wall clock's audit events per plugin-on transaction, which the on arms must match (null: none counted). */
  wallClockEventsPerTx?: number | null;
  progress: (message: string) => void;
}

/**
 * A counted A/B of one subject: its own local server under callgrind, the same fixed transactions in every arm,
 * ABBA pairs after a discarded arm, then the per-transaction figures, where the added instructions go, and the
 * identity that says which other records they compare with. The server is stopped whatever happens.
 */
export async function countRun(
  config: Pick<Environment, 'mysqldPath' | 'searchPath' | 'pluginDir'>,
  job: SysbenchJob,
  opts: CountRunOptions,
  seams: CountedSeams,
): Promise<CountedRecord> {
  const counted = countedJob(job);
  const clock = seams.clock ?? realClock;
  const started = clock.nowMs();
  const host = await startCountedServer(
    config,
    { job: counted, subject: opts.subject, loader: opts.application, progress: opts.progress },
    seams,
  );
  try {
    const added = opts.added ?? null;
    const outcome = await countArms(
      host,
      { job: counted, subject: opts.subject, plan: opts.plan, added, progress: opts.progress },
      seams,
    );
    const described = describeCounted(counted, opts.plan, added);
    const identity = await countedIdentity(host.server, opts.soname, opts.configHash, described);
    const record = countedRecord(outcome, {
      subject: opts.subject.label,
      plan: opts.plan,
      identity,
      soname: opts.soname,
      wallS: (clock.nowMs() - started) / 1000,
    });
    const comparable = judgeComparable(outcome.arms, opts.wallClockEventsPerTx ?? null);
    if (comparable.refused) opts.progress(`${opts.subject.label}: ${comparable.refused}`);
    return { ...record, comparable, ...(added && { added: addedRecord(added, opts.plan) }) };
  } finally {
    await host.server.stop();
  }
}

/**
 * The run's plugin, installed with its startup options and settings, counted off against on. Its on arms' audit
 * events are held to the wall clock's (`judgeComparable`): the record says when they are not comparable.
 */
export function countPluginRun(
  config: Pick<Environment, 'mysqldPath' | 'searchPath' | 'pluginDir'>,
  run: ResolvedRun,
  opts: {
    job: SysbenchJob;
    configHash: string | null;
    wallClock: WallClockFigures;
    progress: (message: string) => void;
  },
  seams: CountedSeams,
): Promise<CountedRecord> {
  const { job, configHash, wallClock, progress } = opts;
  const { profile } = run;
  return countRun(
    config,
    job,
    {
      subject: {
        label: profile.name,
        setup: [...profile.install, ...setGlobals(profile.measureSettings)],
        arms: { off: profile.disable, on: profile.enable },
        log: profile,
        selfModifyingCode: profile.patchesServerCode ?? false,
        threadHandling: threadHandlingOf(run.startupOptions),
      },
      soname: profile.soname,
      configHash,
      plan: defaultCountedPlan,
      application: async (server) => (await trafficConnections(server, run.traffic.accounts)).application,
      added: countedAdded(run, wallClock.tps, progress),
      wallClockEventsPerTx: wallClock.eventsPerTx,
      progress,
    },
    seams,
  );
}

/**
 * A gate comparison counted: base against head (the arms the wall clock measured, `arms`), the head's plugin
 * installed with its startup options on a counted server of its own. The restarts design is not counted: each arm's
 * restart would need a warm-up of its own (the first arms after a start count up to 5% more).
 */
export async function countComparison(
  config: Pick<Environment, 'mysqldPath' | 'searchPath' | 'pluginDir' | 'target' | 'counted'>,
  head: ResolvedRun,
  opts: {
    arms: ArmSteps;
    design: ComparisonDesign;
    job: SysbenchJob;
    /** The base arms' mean throughput: what turns traffic.added's rates into counts per arm. */
    wallClockTps: number | null;
    progress: (message: string) => void;
  },
  seams: CountedSeams,
): Promise<CountedRecord | { notCounted: string }> {
  const { arms, design, job, wallClockTps, progress } = opts;
  const why = await countedUnavailable(config);
  if (why) return { notCounted: `not counted: ${why}` };
  if (design === 'restarts')
    return { notCounted: 'not counted: the restarts design (each arm would need a warm-up of its own)' };
  const refused = noThreadsRefusal([head]);
  if (refused) return { notCounted: `not counted: ${refused}` };
  const { profile } = head;
  return countRun(
    config,
    job,
    {
      subject: {
        label: `${head.id} base/head`,
        setup: profile.install,
        arms,
        log: profile,
        selfModifyingCode: profile.patchesServerCode ?? false,
        threadHandling: threadHandlingOf(head.startupOptions),
      },
      soname: profile.soname,
      configHash: null,
      plan: defaultCountedPlan,
      application: async (server) => (await trafficConnections(server, head.traffic.accounts)).application,
      added: countedAdded(head, wallClockTps, progress),
      progress,
    },
    seams,
  );
}
