import { planFor } from '../bench/measure-plan.ts';
import { calibrate } from '../bench/pipeline.ts';
import type { Environment } from '../config/env.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { checkOwnScripts, needsOwnCalibration } from '../traffic/run-traffic.ts';
import { countedCost } from './counted-cost.ts';
import { lifecycleCheck } from './lifecycle-check.ts';
import { type OneServer, oneServer } from './one-server.ts';
import { openLoop } from './open-loop.ts';
import { holdsZero, type Outcome } from './outcome.ts';
import { type PlannedTest, plannedTests } from './planned-tests.ts';
import { pointCalibration } from './point-calibration.ts';
import { pointMeasurement } from './point-measurement.ts';
import { runCalibration } from './run-calibration.ts';
import { type RunIdentity, runIdentity } from './run-identity.ts';
import { closeRun, openRun, type RunContext, type RunsShared, runPolicy } from './run-state.ts';
import { liveSeams, measuringSeams, type Seams } from './seams.ts';

// Every run of a configuration on one server, as the runs suite declares it: the tables are loaded and the A/A
// noise calibrated once, then each run gets its lifecycle checks (under its settings), its overhead gate at each
// concurrency point, its counted cost and its uninstall. A restart between runs clears what the previous plugin left
// behind. Each kind of test is a module of its own (lifecycle-check.ts, run-calibration.ts, point-calibration.ts,
// point-measurement.ts, open-loop.ts, counted-cost.ts); the suite only names the tests and hands each outcome to Vitest.

export interface RunOnServer {
  run: ResolvedRun;
  heading: string;
  tests: PlannedTest[];
  open(): Promise<void>;
  perform(planned: PlannedTest): Promise<Outcome>;
  close(): Promise<void>;
}

export interface RunsOnServer {
  title: string;
  /** The first test: the tables are loaded, and the shared A/A measured when a run uses it. */
  firstTitle: string;
  start(): Promise<void>;
  prepare(): Promise<Outcome>;
  runs: RunOnServer[];
  stop(): Promise<void>;
}

const onServer = (what: string, server: StartedServer | undefined) =>
  `${what} · ${server ? `${server.info.flavor} ${server.info.version}` : 'server'}`;

export function runsOnServer(
  config: Environment,
  runs: ResolvedRun[],
  seams: Partial<Seams> = {},
): RunsOnServer {
  const on = oneServer(config, { ...liveSeams, ...seams }, onServer);
  checkOwnScripts(runs, config.configPath);
  const machine = { cpus: on.seams.cpus, external: config.target === 'external' };
  const identities = runs.map((run) => runIdentity(run, on.workload, machine));
  const shared: RunsShared = { calibration: null, bankedS: 0 };
  // The shared A/A describes OLTP at the workload's own point with nothing added; a configuration whose every run
  // calibrates its own traffic or concurrency (a DBA's CONNECT-only run with added connections) does not spend a
  // block on it.
  const sharedUsed = identities.some(
    (id) => !needsOwnCalibration(id.run.traffic) && id.points.some((point) => id.isOwn({ point })),
  );
  return {
    title: `${runs.length} run(s) on one server, ${on.workload.name} workload`,
    firstTitle: sharedUsed
      ? 'A/A calibration (no plugin in either arm) shows no overhead'
      : 'the tables are loaded (every run calibrates an A/A of its own traffic)',
    start: () => on.start(),
    prepare: () => prepareShared(on, runs, sharedUsed ? shared : null),
    runs: identities.map((id) => runOnServer(on, shared, id)),
    stop: () => on.stop(),
  };
}

/**
 * The tables, loaded as the first run's application account, as its traffic will be; then, when a run uses it, the
 * shared A/A into `shared`.
 */
async function prepareShared(
  on: OneServer,
  runs: ResolvedRun[],
  shared: RunsShared | null,
): Promise<Outcome> {
  const progress = on.log(shared ? 'A/A' : 'tables');
  const runner = await on.loadTables(runs[0]?.traffic.accounts, progress);
  if (!shared) return {};
  shared.calibration = await calibrate(on.started(), planFor({ workload: on.workload }), {
    progress,
    // The shared A/A belongs to no run: it goes by the first run's interference policy.
    interference: runs[0]?.policy.interference ?? 'warn',
    ...measuringSeams(on.seams, runner),
  });
  return { expectations: holdsZero(shared.calibration) };
}

function runOnServer(on: OneServer, shared: RunsShared, id: RunIdentity): RunOnServer {
  const { run } = id;
  const progress = on.log(run.title);
  const policy = runPolicy(on, id);
  let ctx: RunContext | undefined;
  return {
    run,
    heading: `${run.id}: ${run.title}`,
    tests: plannedTests(id, on.config),
    async open() {
      ctx = { on, shared, id, policy, progress, state: await openRun(on, id, progress) };
    },
    async perform(planned) {
      if (!ctx) throw new Error(`${run.id}: the run did not start; see the error of its first test`);
      if (ctx.state.skipReason) return { skip: ctx.state.skipReason };
      return perform(ctx, planned);
    },
    async close() {
      if (ctx) await closeRun(ctx.state);
      ctx = undefined;
    },
  };
}

/** Each kind of planned test to the module that performs it. */
function perform(ctx: RunContext, planned: PlannedTest): Promise<Outcome> {
  switch (planned.kind) {
    case 'check':
      return lifecycleCheck(ctx, planned.step);
    case 'calibration':
      return runCalibration(ctx);
    case 'point-calibration':
      return pointCalibration(ctx, planned.point);
    case 'measurement':
      return pointMeasurement(ctx, planned.point);
    case 'open-loop':
      return openLoop(ctx, planned.point);
    case 'counted':
      return countedCost(ctx);
  }
}
