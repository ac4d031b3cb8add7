import { planFor } from '../bench/measure-plan.ts';
import { calibrate } from '../bench/pipeline.ts';
import type { Environment } from '../config/env.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { checkOwnScripts, needsOwnCalibration } from '../traffic/run-traffic.ts';
import { pointLabel } from '../workload/threads.ts';
import { countAfterRuns, countedUnderPool, countsAtOnce, ratesForRun, ratesKey } from './counted-cost.ts';
import { lifecycleCheck } from './lifecycle-check.ts';
import { isMeasuring, type MeasuredOnce, type MeasuredRun, measuredKey } from './measured-once.ts';
import { type OneServer, oneServer } from './one-server.ts';
import { openLoop } from './open-loop.ts';
import { holdsZero, type Outcome } from './outcome.ts';
import { countedAfterRuns, countedTitle, type PlannedTest, plannedTests } from './planned-tests.ts';
import { pointCalibration } from './point-calibration.ts';
import { pointMeasurement } from './point-measurement.ts';
import { runCalibration } from './run-calibration.ts';
import { type RunIdentity, runIdentity } from './run-identity.ts';
import { closeRun, openRun, type RunContext, type RunsShared, runPolicy } from './run-state.ts';
import { liveSeams, measuringSeams, type Seams } from './seams.ts';

// Every run of a configuration on one server, as the runs suite declares it: the tables are loaded and the A/A
// noise calibrated once, then each run gets its lifecycle checks (under its settings), its overhead gate at each
// concurrency point, the machine's rates for its count and its uninstall. A restart between runs clears what the
// previous plugin left behind. After the last run, the counts, several at once, each on a server of its own. Each
// kind of test is a module of its own (lifecycle-check.ts, run-calibration.ts, point-calibration.ts,
// point-measurement.ts, open-loop.ts, counted-cost.ts); the suite only names the tests and hands each outcome to Vitest.

export interface RunOnServer {
  run: ResolvedRun;
  id: RunIdentity;
  heading: string;
  tests: PlannedTest[];
  open(): Promise<void>;
  perform(planned: PlannedTest): Promise<Outcome>;
  close(): Promise<void>;
}

/** A run's count after the runs: declared once every run has measured, run beside the other counts. */
export interface CountOnServer {
  title: string;
  perform(): Promise<Outcome>;
}

export interface RunsOnServer {
  title: string;
  /** The first test: the tables are loaded, and the shared A/A measured when a run uses it. */
  firstTitle: string;
  start(): Promise<void>;
  prepare(): Promise<Outcome>;
  runs: RunOnServer[];
  /** The counts after the runs (none when the runs are not counted), and the group's title. */
  counts: CountOnServer[];
  countsTitle: string;
  stop(): Promise<void>;
}

const onServer = (what: string, server: StartedServer | undefined) =>
  `${what} · ${server ? `${server.info.flavor} ${server.info.version}` : 'server'}`;

export function runsOnServer(
  config: Environment,
  runs: ResolvedRun[],
  seams: Partial<Seams> = {},
  measuredOnce: MeasuredOnce | null = null,
): RunsOnServer {
  const on = oneServer(config, { ...liveSeams, ...seams }, onServer);
  checkOwnScripts(runs, config.configPath);
  const machine = { cpus: on.seams.cpus, external: config.target === 'external' };
  const identities = runs.map((run) => runIdentity(run, on.workload, machine));
  const shared: RunsShared = { calibration: null, bankedS: 0, rates: new Map(), pending: new Map() };
  // The shared A/A describes OLTP at the workload's own point with nothing added; a configuration whose every run
  // calibrates its own traffic or concurrency (a DBA's CONNECT-only run with added connections) does not spend a
  // block on it.
  const sharedUsed = identities.some(
    (id) => !needsOwnCalibration(id.run.traffic) && id.points.some((point) => id.isOwn({ point })),
  );
  const session = identities.map((id) => runOnServer(on, shared, id, measuredOnce));
  return {
    title: `${runs.length} run(s) on one server, ${on.workload.name} workload`,
    firstTitle: sharedUsed
      ? 'A/A calibration (no plugin in either arm) shows no overhead'
      : 'the tables are loaded (every run calibrates an A/A of its own traffic)',
    start: () => on.start(),
    async prepare() {
      if (!sharedUsed || !(await allMeasured(session, measuredOnce, on)))
        return prepareShared(on, runs, sharedUsed ? shared : null);
      on.log('A/A')('every run was measured earlier in this invocation: the shared A/A is not taken again');
      return prepareShared(on, runs, null);
    },
    runs: session,
    counts: countedAfterRuns(config) ? countsAfter(on, shared, identities) : [],
    countsTitle: `counts after the runs, under callgrind, up to ${countsAtOnce(on.seams.cpus, identities.some(countedUnderPool))} at once`,
    stop: () => on.stop(),
  };
}

/**
 * The runs' counts after the last run: each waits for a slot (`countsAtOnce`), then counts what its run left
 * (`shared.pending`); a run that was skipped or never measured leaves nothing, and its count says so.
 */
function countsAfter(on: OneServer, shared: RunsShared, identities: RunIdentity[]): CountOnServer[] {
  const slots = slotsOf(countsAtOnce(on.seams.cpus, identities.some(countedUnderPool)));
  return identities.map((id) => ({
    title: countedTitle(id.run.id),
    perform: () =>
      slots(async () => {
        const pending = shared.pending.get(id.run.id);
        if (!pending) return { skip: `not counted: ${id.run.id} did not open; see its first test` };
        if ('skip' in pending) return { skip: pending.skip };
        return countAfterRuns(on, pending);
      }),
  }));
}

/** Runs at most `limit` of the tasks given at once, the others waiting in order. */
function slotsOf(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Whether another file of the invocation measured every run here: then the shared A/A is not measured either. */
async function allMeasured(runs: RunOnServer[], measuredOnce: MeasuredOnce | null, on: OneServer) {
  if (!measuredOnce) return false;
  for (const { id, tests } of runs) {
    if (!(await measuredOnce.find(measuredKey(id, tests, on.started().info, on.config.target)))) return false;
  }
  return true;
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

function runOnServer(
  on: OneServer,
  shared: RunsShared,
  id: RunIdentity,
  measuredOnce: MeasuredOnce | null,
): RunOnServer {
  const { run } = id;
  const progress = on.log(run.title);
  const policy = runPolicy(on, id);
  const tests = plannedTests(id, on.config);
  let ctx: RunContext | undefined;
  // Measured by another file of this invocation (measured-once.ts): its outcomes, else what this run measures.
  let earlier: MeasuredRun | null = null;
  let taken: Record<string, Outcome> = {};
  const key = () => measuredKey(id, tests, on.started().info, on.config.target);
  return {
    run,
    id,
    heading: `${run.id}: ${run.title}`,
    tests,
    async open() {
      ctx = { on, shared, id, policy, progress, state: await openRun(on, id, progress) };
      earlier = measuredOnce && !ctx.state.skipReason ? await measuredOnce.find(key()) : null;
      taken = {};
      if (earlier) reuse(ctx, tests, earlier);
    },
    async perform(planned) {
      if (!ctx) throw new Error(`${run.id}: the run did not start; see the error of its first test`);
      if (ctx.state.skipReason) return { skip: ctx.state.skipReason };
      const reused = isMeasuring(planned) ? earlier?.outcomes[planned.title] : undefined;
      if (reused) return reused;
      const outcome = await perform(ctx, planned);
      if (isMeasuring(planned) && outcome.error === undefined && outcome.skip === undefined)
        taken[planned.title] = outcome;
      return outcome;
    },
    async close() {
      const measuring = tests.filter(isMeasuring);
      const whole = measuring.length > 0 && measuring.every((t) => taken[t.title] !== undefined);
      try {
        if (ctx) leaveForCount(ctx, tests);
        if (measuredOnce && !earlier && whole && ctx)
          await measuredOnce.keep(key(), { by: measuredOnce.by, outcomes: taken });
      } finally {
        // The run's sessions close even when its outcomes could not be kept.
        if (ctx) await closeRun(ctx.state);
        ctx = undefined;
        earlier = null;
      }
    },
  };
}

/** What the run's count after the runs takes: its wall clock at its own point and the rates, when it has a count. */
function leaveForCount(ctx: RunContext, tests: PlannedTest[]): void {
  const { on, id, state, shared, progress } = ctx;
  if (!tests.some((t) => t.kind === 'rates')) return;
  if (state.skipReason) {
    shared.pending.set(id.run.id, { skip: state.skipReason });
    return;
  }
  shared.pending.set(id.run.id, {
    id,
    key: id.resultKey(on.started().info),
    measured: state.measuredAt.get(pointLabel(id.ownPoint)) ?? null,
    rates: shared.rates.get(ratesKey(id)) ?? null,
    progress,
  });
}

/** A run measured earlier in the invocation: said once, and its closed-loop points kept for the open loop and count. */
function reuse(ctx: RunContext, tests: PlannedTest[], earlier: MeasuredRun): void {
  ctx.progress(
    `measured earlier in this invocation by ${earlier.by}: its A/A and measurements are reused, not taken again`,
  );
  for (const planned of tests) {
    const record = earlier.outcomes[planned.title]?.record;
    if (planned.kind === 'measurement' && record?.kind === 'measurement')
      ctx.state.measuredAt.set(pointLabel(planned.point), record.measurement);
  }
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
    case 'rates':
      return ratesForRun(ctx, ctx.shared.rates);
  }
}
