import type { CountedIdentity, CountedRecord } from '../results/counted-record.ts';
import { addedPerArm } from '../traffic/added-load.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import { costBreakdown } from './cost-breakdown.ts';
import type { CountedAdded, CountedArmReading, CountedPlan, CountedRunOutcome } from './counted-ab.ts';
import { countedFigures } from './counted-stats.ts';

/** What every counted figure leaves out; said with the figures wherever they are shown. */
export const COUNTED_LIMITS = [
  'user-space instructions of the connection threads only: no waits, no lock contention, no kernel time beyond the syscalls counted',
  'one thread under valgrind (~30 transactions per second): what many cores serialise on is not seen',
  'the wall clock stays the verdict of what users feel; counts explain it and compare across machines',
];

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
export function addedRecord(added: CountedAdded, plan: CountedPlan) {
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
    /** Seconds the count took, from its start (its server's, where it started one) to its record. */
    wallS: number;
  },
): CountedRecord {
  const { subject, plan, identity, soname, wallS } = about;
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
    ...(breakdown.sendCalls ? { sendCalls: breakdown.sendCalls } : {}),
    arms: [arm(outcome.warmup, true), ...outcome.arms.map((a) => arm(a, false))],
    queryIds: outcome.queryIds,
    connectionIds: outcome.connectionIds,
    identity,
    wallS,
    limits: COUNTED_LIMITS,
  };
}
