import type { Environment } from '../config/env.ts';
import type { CountedIdentity, CountedRecord } from '../results/counted-record.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { addedPerArm } from '../traffic/added-load.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import { judgeComparable } from './comparable.ts';
import { costBreakdown } from './cost-breakdown.ts';
import {
  type CountedAdded,
  type CountedArmReading,
  type CountedPlan,
  type CountedRunOutcome,
  type CountedSubject,
  countArms,
  countedJob,
  startCountedServer,
} from './counted-ab.ts';
import { countedFigures } from './counted-stats.ts';
import { countedIdentity } from './identity.ts';

/** What every counted figure leaves out; said with the figures wherever they are shown. */
export const COUNTED_LIMITS = [
  'user-space instructions of the connection threads only: no waits, no lock contention, no kernel time beyond the syscalls counted',
  'one thread under valgrind (~30 transactions per second): what many cores serialise on is not seen',
  'the wall clock stays the verdict of what users feel; counts explain it and compare across machines',
];

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
): Promise<CountedRecord> {
  const counted = countedJob(job);
  const started = Date.now();
  const host = await startCountedServer(config, {
    job: counted,
    subject: opts.subject,
    loader: opts.application,
    progress: opts.progress,
  });
  try {
    const added = opts.added ?? null;
    const outcome = await countArms(host, {
      job: counted,
      subject: opts.subject,
      plan: opts.plan,
      added,
      progress: opts.progress,
    });
    const described = describeCounted(counted, opts.plan, added);
    const identity = await countedIdentity(host.server, opts.soname, opts.configHash, described);
    const record = countedRecord(outcome, {
      subject: opts.subject.label,
      plan: opts.plan,
      identity,
      soname: opts.soname,
      startedMs: started,
    });
    const comparable = judgeComparable(outcome.arms, opts.wallClockEventsPerTx ?? null);
    if (comparable.refused) opts.progress(`${opts.subject.label}: ${comparable.refused}`);
    return { ...record, comparable, ...(added && { added: addedRecord(added, opts.plan) }) };
  } finally {
    await host.server.stop();
  }
}

/** The counted workload as the identity names it: counts of added operations included, never their rates. */
export function describeCounted(
  job: SysbenchJob,
  plan: CountedPlan,
  added: CountedAdded | null = null,
): string {
  const what = job.script ?? `${job.test} ${job.tables}×${job.tableSize}`;
  const plus = added
    ? `, then ${addedPerArm(added.rates, added.wallClockTps, plan.events)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}`
    : '';
  return `${what}, ${plan.events} transactions per arm${plus}, seed ${plan.seed}, 1 thread`;
}

/** What the record says of the added traffic: each kind's rate, the wall-clock throughput and the count per arm. */
function addedRecord(added: CountedAdded, plan: CountedPlan) {
  const perArm = new Map(addedPerArm(added.rates, added.wallClockTps, plan.events));
  return {
    wallClockTps: added.wallClockTps,
    kinds: added.rates.map(([kind, perS]) => ({ kind, perS, perArm: perArm.get(kind) ?? 0 })),
  };
}

/** The record of one subject's counted arms: figures, where the cost goes, the arms themselves, and the identity. */
export function countedRecord(
  outcome: Omit<CountedRunOutcome, 'server'>,
  about: {
    /** The subject's label. */
    subject: string;
    plan: CountedPlan;
    identity: CountedIdentity;
    /** The plugin library whose functions the breakdown names (null for a built-in). */
    soname: string | null;
    /** When the count began (Date.now()): the record's wallS runs from it. */
    startedMs: number;
  },
): CountedRecord {
  const { subject, plan, identity, soname, startedMs } = about;
  const breakdown = costBreakdown(outcome.arms, soname);
  const arm = (a: CountedArmReading, warmup: boolean) => ({
    kind: a.kind,
    warmup,
    transactions: a.transactions,
    ...a.totals,
    lostThreads: a.lostThreads,
  });
  return {
    subject,
    pairs: plan.pairs,
    eventsPerArm: plan.events,
    seed: plan.seed,
    threads: 1,
    figures: countedFigures(outcome.arms),
    topFunctions: breakdown.topFunctions,
    byObject: breakdown.byObject.filter((o) => Math.round(o.addedPerTx) !== 0),
    entryPoints: breakdown.entryPoints,
    arms: [arm(outcome.warmup, true), ...outcome.arms.map((a) => arm(a, false))],
    queryIds: outcome.queryIds,
    connectionIds: outcome.connectionIds,
    identity,
    wallS: (Date.now() - startedMs) / 1000,
    limits: COUNTED_LIMITS,
  };
}
