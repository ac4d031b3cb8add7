import { planFor } from '../bench/measure-plan.ts';
import { wallClockEventsPerTx } from '../counted/comparable.ts';
import { readMachineRates, withPrediction } from '../counted/machine-rates.ts';
import { countedLine, countedUnavailable } from '../counted/run-counted.ts';
import { isThreadPool, threadHandlingOf } from '../counted/thread-handling.ts';
import type { MachineRates } from '../results/counted-record.ts';
import type { Measurement } from '../results/schema.ts';
import type { ResultKey } from '../results/task-meta.ts';
import { pointLabel } from '../workload/threads.ts';
import { countPluginRun } from './counted-run.ts';
import type { OneServer } from './one-server.ts';
import { errorLine, type Outcome } from './outcome.ts';
import type { RunIdentity } from './run-identity.ts';
import type { RunContext } from './run-state.ts';

// The counted channel of the runs on one server, in two parts. In each run's slot, while its plugin is installed and
// off on the wall-clock server: the machine's rates (what a counted instruction and a write() cost here), read once
// per point, startup options and transactions (`ratesForRun`, `ratesKey`). After the last run has measured: the
// counts, each on a server of its own under callgrind, several at once (`countAfterRuns`). A count is instructions,
// not seconds: what else the CPUs do slows it and, under one thread per connection, leaves its figures in their
// quiet spread, so the counts share the machine with each other, never with a wall clock (under the thread pool, one
// at a time: `countsAtOnce`).

/** What a run leaves for its count after the runs: its identity, its wall clock at its own point, the rates. */
export interface PendingCount {
  id: RunIdentity;
  key: ResultKey;
  measured: Measurement | null;
  rates: MachineRates | null;
  progress: (message: string) => void;
}

/**
 * Counts at once: one a core, and one more. A counted server runs one guest thread at a time (valgrind serialises
 * them), so it keeps at most one core busy, less its waits for sysbench and the harness's reads between arms. One at
 * a time when a run is counted under the thread pool: there the count takes the whole process
 * (src/counted/thread-io.ts) and other load can widen it. The counted suite's pool case on 2026-12-08: the general log added 2.02%
 * [1.68, 2.36] (arms within 0.08% and 0.11%) in the sequence, 2.00% [1.84, 2.17] and then 1.65% [0.39, 2.91] (arms
 * within 0.54% and 0.51%) beside other suites.
 */
export const countsAtOnce = (cpus: number, pool = false): number => (pool ? 1 : Math.max(1, cpus) + 1);

/** Whether a run is counted under the thread pool (its startup options set thread_handling=pool-of-threads). */
export const countedUnderPool = (id: RunIdentity): boolean =>
  isThreadPool(threadHandlingOf(id.run.startupOptions));

/** Why the runs on this server are not counted (one line), or null; under AUDITBENCH_COUNTED=on that line fails. */
export async function countedRefusal(on: OneServer, id: RunIdentity): Promise<Outcome | null> {
  const { config } = on;
  const why = await countedUnavailable(config);
  if (why && config.counted === 'on') return { failure: `${id.run.id}: AUDITBENCH_COUNTED=on, but ${why}` };
  if (why) return { skip: `not counted: ${why}` };
  return null;
}

/** A count that threw, as the counted test's outcome: skipped with its one line, or under `on` that line as a failure. */
export function countFailed(counted: 'auto' | 'on' | 'off', runId: string, error: unknown): Outcome {
  const line = errorLine(error);
  if (counted === 'on') return { failure: `${runId}: AUDITBENCH_COUNTED=on, but the count failed: ${line}` };
  return { skip: `not counted: ${line}` };
}

/**
 * Which runs' rates are one reading: the same point and cores, the same startup options (a thread pool prices an
 * instruction otherwise), and the same transactions (a script of the run's own, or statements sent unprepared, give
 * others). Left out: the plugin installed and off, which adds what SQL_ERROR_LOG adds to OLTP, nothing the count can
 * tell from 0; and traffic.added, a few operations a second beside hundreds of transactions (SQL_ERROR_LOG's 5 failed
 * logins a second are one per hundred transactions at this machine's throughput).
 */
export function ratesKey(id: RunIdentity): string {
  const { run } = id;
  return JSON.stringify({
    point: pointLabel(id.ownPoint),
    cores: id.ownPoint.cores,
    startup: Object.entries(run.startupOptions).sort(([a], [b]) => a.localeCompare(b)),
    script: run.traffic.script?.sha256 ?? null,
    prepared: run.traffic.preparedStatements,
  });
}

/**
 * In the run's slot: the machine's rates at its own point, read on the wall-clock server with the plugin off, or
 * taken from an earlier run's reading with the same key. Left for the count after the runs, with the wall clock.
 */
export async function ratesForRun(ctx: RunContext, rates: Map<string, MachineRates>): Promise<Outcome> {
  const { id, state, progress } = ctx;
  const refused = await countedRefusal(ctx.on, id);
  if (refused) return refused;
  const measured = state.measuredAt.get(pointLabel(id.ownPoint));
  if (!measured) return { skip: 'no wall clock at its own point to set beside the count: no rates read' };
  const key = ratesKey(id);
  const earlier = rates.get(key);
  if (earlier) {
    progress(
      'machine rates: the reading of an earlier run at this point, with these startup options and traffic',
    );
    return {};
  }
  const read = await readRates(ctx);
  rates.set(key, read);
  progress(
    read.failed
      ? `machine rates not read: ${read.failed}`
      : `machine rates: ${(read.serverCpuPerTx * 1000).toFixed(2)} ms of server CPU per transaction over ${read.seconds.toFixed(0)} s`,
  );
  return {};
}

/** What a counted instruction and a write() cost on this machine, read at the run's own point. */
function readRates(ctx: RunContext) {
  const { on, id, state } = ctx;
  const point = id.ownPoint;
  const { traffic, runner } = state.traffic.measured();
  return readMachineRates(on.started(), {
    job: planFor({ workload: on.workload, point, traffic }).job,
    pinned: point.cores === 'pinned',
    turnOff: id.run.profile.disable,
    runner,
    logFile: id.run.profile.log.file,
    ...(on.seams.clock ? { clock: on.seams.clock } : {}),
  });
}

/**
 * After the runs: one run's count on a server of its own under callgrind, its record priced at the rates beside the
 * wall clock. A count that throws is skipped with its one line, as a count that cannot run is: the run's wall-clock
 * verdict stands alone (AUDITBENCH_COUNTED=on makes it the run's failure instead, still one line).
 */
export async function countAfterRuns(on: OneServer, pending: PendingCount): Promise<Outcome> {
  const { id, progress } = pending;
  const refused = await countedRefusal(on, id);
  if (refused) return refused;
  return count(on, pending).catch((error: unknown) => {
    const outcome = countFailed(on.config.counted, id.run.id, error);
    progress(`counted: ${outcome.skip ?? outcome.failure}`);
    return outcome;
  });
}

async function count(on: OneServer, { id, key, measured, rates, progress }: PendingCount): Promise<Outcome> {
  // traffic.added goes per transaction under valgrind, scaled by the run's own wall-clock throughput; the
  // counted on arms must log the audit events per transaction the wall clock logged.
  const countedAlone = await countPluginRun(
    on.config,
    id.run,
    {
      job: on.workload,
      configHash: id.key().configHash,
      wallClock: {
        tps: measured?.baselineTps ?? null,
        eventsPerTx: wallClockEventsPerTx(measured?.auditEvents),
      },
      progress,
    },
    on.seams,
  );
  const counted =
    rates && measured
      ? withPrediction(countedAlone, rates, { pct: measured.overheadPct, ci95: measured.overheadCi95 })
      : countedAlone;
  progress(`counted: ${countedLine(counted)}`);
  if (counted.prediction) progress(counted.prediction.line);
  return { record: { ...key, kind: 'counted', counted } };
}
