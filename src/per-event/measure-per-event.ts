import { availableParallelism } from 'node:os';
import { execa } from 'execa';
import { Bench } from 'tinybench';
import { type Clock, realClock } from '../machine/clock.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import { type OperationKind, operationKinds } from '../results/per-event-operations.ts';
import type { OperationCost } from '../results/per-event-record.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { Arm } from '../stats/tps-pair.ts';
import { measureLogCost } from './log-cost.ts';
import { type LatencyPair, operationCost } from './operation-cost.ts';
import { createPerEventTable, type Operation, openOperations } from './operation-runner.ts';
import type { PerEventPlan } from './plan.ts';

export interface PerEventSample {
  operations: OperationCost[];
  wallS: number;
  pinning: string | null;
}

interface Pinning extends AsyncDisposable {
  label: string | null;
}

/** Server on CPU 0, this process (the client) on CPU 1, as the gate pins server and sysbench; no-op where it cannot. */
async function pin(server: StartedServer): Promise<Pinning> {
  const cores = availableParallelism();
  if (!server.pinCpus || cores < 2) return { label: null, async [Symbol.asyncDispose]() {} };
  await server.pinCpus('0');
  await execa('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  return {
    label: 'server on CPU 0, client on CPU 1',
    // The test process may go on to other work: give it every CPU back.
    async [Symbol.asyncDispose]() {
      await execa('taskset', ['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)]);
    },
  };
}

/** One arm of one operation: tinybench runs it for `segmentMs` and gives its median latency in µs. */
async function benchSegment(kind: OperationKind, operation: Operation, segmentMs: number): Promise<number> {
  // Warm-up by iterations only: the connection and the JIT are warm after the first pass (see measurePerEvent).
  const bench = new Bench({
    time: segmentMs,
    iterations: 10,
    warmupTime: 0,
    warmupIterations: 3,
    throws: true,
  });
  bench.add(kind, operation);
  const [task] = await bench.run();
  const result = task?.result;
  if (result?.state !== 'completed') {
    throw new Error(`tinybench did not complete '${kind}': state ${result?.state ?? 'no task'}`);
  }
  // The median: a neighbour that takes the CPU for a few ms lifts a segment's mean by tens of µs, its median hardly;
  // the plugin's cost is added to every operation, so it moves the median as much as the mean.
  return result.latency.p50 * 1_000;
}

/**
 * Latency of each single operation with the plugin off and on, in `plan.pairs` ABBA-ordered pairs (as the gate
 * orders its segments), then the log records and bytes each writes. Leaves the plugin off.
 */
export async function measurePerEvent(
  server: StartedServer,
  profile: PluginProfile,
  opts: {
    plan: PerEventPlan;
    progress: (message: string) => void;
    /** The account the operations log in as (the run's application account); root when absent. */
    as?: ConnectionOptions;
    /** The clock `wallS` is read on: the real one unless a test hands in its own. */
    clock?: Clock;
  },
): Promise<PerEventSample> {
  const { plan, progress, as, clock = realClock } = opts;
  const started = clock.nowMs();
  // The table is root's to create; the operations run as `as` (the application account), as production would.
  await createPerEventTable(server);
  await using pinning = await pin(server);
  await using set = await openOperations(server, as);
  const arms: Record<Arm, typeof profile.enable> = { off: profile.disable, on: profile.enable };
  const setArm = (arm: Arm) => runSteps(server, arms[arm], `Turning ${profile.name} ${arm}`);
  // A discarded pass in each arm: JIT, connection, buffer pool and the log file are warm before the first pair.
  for (const arm of ['on', 'off'] as const) {
    await setArm(arm);
    for (const kind of operationKinds) await benchSegment(kind, set.operations[kind], plan.segmentMs);
  }
  const pairs = Object.fromEntries(operationKinds.map((k) => [k, [] as LatencyPair[]])) as Record<
    OperationKind,
    LatencyPair[]
  >;
  // Pair i of every kind in the gate's ABBA order, its two arms back to back: a load that comes and goes in
  // seconds (this VM's neighbours, the other engineers' tests) falls on both arms of a pair or is trimmed.
  const order = abbaOrder(plan.pairs);
  for (let pair = 0; pair < plan.pairs; pair++) {
    const armsOfPair = order.slice(2 * pair, 2 * pair + 2);
    for (const kind of operationKinds) {
      const latencyUs: Partial<Record<Arm, number>> = {};
      for (const arm of armsOfPair) {
        await setArm(arm);
        latencyUs[arm] = await benchSegment(kind, set.operations[kind], plan.segmentMs);
      }
      const { off, on } = latencyUs;
      if (off === undefined || on === undefined)
        throw new Error(`pair ${pair + 1} lacks an arm: the ABBA order is broken`);
      pairs[kind].push({ offUs: off, onUs: on });
    }
    if ((pair + 1) % 5 === 0) progress(`${pair + 1} of ${plan.pairs} pairs`);
  }
  await runSteps(server, profile.enable, `Turning ${profile.name} on`);
  const operations: OperationCost[] = [];
  for (const kind of operationKinds) {
    const log = await measureLogCost(server, profile, set.operations[kind], plan.logOps);
    operations.push(operationCost(kind, pairs[kind], log));
  }
  await runSteps(server, profile.disable, `Turning ${profile.name} off`);
  return { operations, wallS: (clock.nowMs() - started) / 1000, pinning: pinning.label };
}
