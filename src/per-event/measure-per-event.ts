import { availableParallelism } from 'node:os';
import { execa } from 'execa';
import { Bench } from 'tinybench';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { abbaOrder } from '../stats/adaptive.ts';
import type { Arm } from '../stats/tps-pair.ts';
import { measureLogCost } from './log-cost.ts';
import { type LatencyPair, operationCost } from './operation-cost.ts';
import { createPerEventTable, type Operation, openOperations } from './operation-runner.ts';
import { type OperationKind, operationKinds } from './operations.ts';
import type { PerEventPlan } from './plan.ts';
import type { OperationCost } from './record.ts';

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

/** One arm: tinybench runs each operation for `segmentMs` and gives its mean latency in µs. */
async function benchArm(
  operations: Record<OperationKind, Operation>,
  segmentMs: number,
): Promise<Record<OperationKind, number>> {
  const bench = new Bench({
    time: segmentMs,
    iterations: 10,
    warmupTime: 20,
    warmupIterations: 5,
    throws: true,
  });
  for (const kind of operationKinds) bench.add(kind, operations[kind]);
  const tasks = await bench.run();
  const meanUs = {} as Record<OperationKind, number>;
  for (const task of tasks) {
    const result = task.result;
    if (result.state !== 'completed') {
      throw new Error(`tinybench did not complete '${task.name}': state ${result.state}`);
    }
    meanUs[task.name as OperationKind] = result.latency.mean * 1_000;
  }
  return meanUs;
}

/**
 * Latency of each single operation with the plugin off and on, in `plan.pairs` ABBA-ordered pairs (as the gate
 * orders its segments), then the log records and bytes each writes. Leaves the plugin off.
 */
export async function measurePerEvent(
  server: StartedServer,
  profile: PluginProfile,
  plan: PerEventPlan,
  progress: (message: string) => void,
): Promise<PerEventSample> {
  const started = Date.now();
  await createPerEventTable(server);
  await using pinning = await pin(server);
  await using set = await openOperations(server);
  const arms: Record<Arm, typeof profile.enable> = { off: profile.disable, on: profile.enable };
  const pairs = Object.fromEntries(operationKinds.map((k) => [k, [] as LatencyPair[]])) as Record<
    OperationKind,
    LatencyPair[]
  >;
  const order = abbaOrder(plan.pairs);
  let half: Partial<Record<Arm, Record<OperationKind, number>>> = {};
  for (const [index, arm] of order.entries()) {
    await runSteps(server, arms[arm], `Turning ${profile.name} ${arm}`);
    half[arm] = await benchArm(set.operations, plan.segmentMs);
    if (index % 2 === 1) {
      const { off, on } = half;
      if (!off || !on) throw new Error(`pair ${(index + 1) / 2} lacks an arm: the ABBA order is broken`);
      for (const kind of operationKinds) pairs[kind].push({ offUs: off[kind], onUs: on[kind] });
      half = {};
      if (((index + 1) / 2) % 5 === 0) progress(`${(index + 1) / 2} of ${plan.pairs} pairs`);
    }
  }
  await runSteps(server, profile.enable, `Turning ${profile.name} on`);
  const operations: OperationCost[] = [];
  for (const kind of operationKinds) {
    const log = await measureLogCost(server, profile, set.operations[kind], plan.logOps);
    operations.push(operationCost(kind, pairs[kind], log));
  }
  await runSteps(server, profile.disable, `Turning ${profile.name} off`);
  return { operations, wallS: (Date.now() - started) / 1000, pinning: pinning.label };
}
