import { availableParallelism } from 'node:os';
import { prepareMeasurement } from '../bench/measure-overhead.ts';
import { planFor } from '../bench/measure-plan.ts';
import { calibrate, limitFailure, measureRun } from '../bench/pipeline.ts';
import { pluginSubject, realSysbench, type SysbenchRunner } from '../bench/subject.ts';
import { afterGate, bankLine } from '../bench/time-bank.ts';
import type { Environment } from '../config/env.ts';
import { leftOutLine, movedLine } from '../config/outside-options.ts';
import { policyOn } from '../config/policy.ts';
import { wallClockEventsPerTx } from '../counted/comparable.ts';
import { readMachineRates, withPrediction } from '../counted/machine-rates.ts';
import { countedLine, countedUnavailable, countPluginRun } from '../counted/run-counted.ts';
import type { Clock } from '../machine/clock.ts';
import type { Probe } from '../machine/sampled-block.ts';
import { unavailableReason } from '../plugins/availability.ts';
import { type LifecycleStep, lifecycleContext, lifecycleSteps } from '../plugins/lifecycle/index.ts';
import type { Calibration, Measurement } from '../results/schema.ts';
import type { ResultKey, ResultRecord } from '../results/task-meta.ts';
import { configHash } from '../runs/config-hash.ts';
import { resultKey } from '../runs/result-key.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { type AccountSession, accountSession } from '../servers/account-session.ts';
import { startServer } from '../servers/start-server.ts';
import type { StartedServer } from '../servers/started-server.ts';
import {
  dropAccountsAndStop,
  type TrafficConnections,
  trafficConnections,
} from '../servers/traffic-accounts.ts';
import { checkOwnScripts, measuredRunTraffic, needsOwnCalibration } from '../traffic/run-traffic.ts';
import { runnerAs } from '../workload/run-as.ts';
import {
  type ConcurrencyPoint,
  concurrencyPoints,
  isDefaultPoint,
  OPEN_LOOP_PCT,
  openLoopLabel,
  openLoopPoint,
  openLoopRate,
  pointLabel,
} from '../workload/threads.ts';
import { getWorkload } from '../workload/workloads.ts';

// Every run of a configuration on one server, as the runs suite declares it: the tables are loaded and the A/A
// noise calibrated once, then each run gets its lifecycle checks (under its settings), its overhead gate at each
// concurrency point, its counted cost and its uninstall. A restart between runs clears what the previous plugin left
// behind. The suite only names the tests and hands each outcome to Vitest.

/** What a unit test replaces: the server, the innermost sysbench, the machine probe, the clock, the CPUs. */
export interface Seams {
  startServer: (config: Environment) => Promise<StartedServer>;
  sysbench: SysbenchRunner;
  probe?: Probe;
  clock?: Clock;
  cpus: number;
  log: (line: string) => void;
}

const liveSeams: Seams = {
  startServer,
  sysbench: realSysbench,
  cpus: availableParallelism(),
  log: (line) => console.log(line),
};

/** One test of a run, in the order the suite declares them. */
export type PlannedTest =
  | { kind: 'check'; title: string; step: LifecycleStep }
  | { kind: 'calibration'; title: string }
  | { kind: 'point-calibration'; title: string; point: ConcurrencyPoint }
  | { kind: 'measurement'; title: string; point: ConcurrencyPoint }
  | { kind: 'open-loop'; title: string; point: ConcurrencyPoint }
  | { kind: 'counted'; title: string };

/** What a test hands to Vitest: its record, then a skip, an error, a failure line or values to compare, in order. */
export interface Outcome {
  record?: ResultRecord;
  skip?: string;
  error?: unknown;
  failure?: string;
  expectations?: { label: string; observed: unknown; expected: unknown }[];
}

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

export function runsOnServer(
  config: Environment,
  runs: ResolvedRun[],
  seams: Partial<Seams> = {},
): RunsOnServer {
  const { startServer: start, sysbench, probe, clock, cpus, log: write } = { ...liveSeams, ...seams };
  const workload = getWorkload(config.workload);
  checkOwnScripts(runs, config.configPath);
  let server: StartedServer | undefined;
  let calibration: Calibration | null = null;
  let runsStarted = 0;
  // Seconds the gates before did not use, for the gates after them (src/bench/time-bank.ts).
  let bankedS = 0;

  const started = (): StartedServer => {
    if (!server) throw new Error('The server did not start; see the error of the first test');
    return server;
  };
  const external = config.target === 'external';
  const pointsOf = (run: ResolvedRun): ConcurrencyPoint[] =>
    concurrencyPoints(run, workload, {
      cpus,
      external,
    });
  const log = (what: string) => (message: string) => {
    const where = server ? `${server.info.flavor} ${server.info.version}` : 'server';
    write(`[${what} · ${where} · ${workload.name}] ${message}`);
  };
  const seamsFor = (runner: SysbenchRunner) => ({
    runner,
    ...(probe ? { probe } : {}),
    ...(clock ? { clock } : {}),
  });

  // The shared A/A describes OLTP at the workload's own point with nothing added; a configuration whose every run
  // calibrates its own traffic or concurrency (a DBA's CONNECT-only run with added connections) does not spend a
  // block on it.
  const sharedUsed = runs.some(
    (run) =>
      !needsOwnCalibration(run.traffic) && pointsOf(run).some((p) => isDefaultPoint(p, workload, external)),
  );

  return {
    title: `${runs.length} run(s) on one server, ${workload.name} workload`,
    firstTitle: sharedUsed
      ? 'A/A calibration (no plugin in either arm) shows no overhead'
      : 'the tables are loaded (every run calibrates an A/A of its own traffic)',
    async start() {
      server = await start(config);
      log('server')(`started on 127.0.0.1:${server.connection.port}`);
    },
    async prepare() {
      const progress = log(sharedUsed ? 'A/A' : 'tables');
      // The tables are loaded and the noise measured as the first run's application account, as its traffic will be.
      const accounts = runs[0]?.traffic.accounts;
      const runner = accounts
        ? runnerAs((await trafficConnections(started(), accounts)).application, sysbench)
        : sysbench;
      const planned = planFor({ workload });
      await prepareMeasurement(started(), planned, progress, runner);
      if (!sharedUsed) return {};
      calibration = await calibrate(started(), planned, {
        progress,
        // The shared A/A belongs to no run: it goes by the first run's interference policy.
        interference: runs[0]?.policy.interference ?? 'warn',
        ...seamsFor(runner),
      });
      return {
        expectations: [
          {
            label: 'the A/A interval should contain 0: the design is biased or the machine drifted',
            observed: calibration.containsZero,
            expected: true,
          },
        ],
      };
    },
    runs: runs.map((run) => runOnServer(run)),
    // An external server keeps nothing of the run: the traffic's accounts go with it.
    stop: () => dropAccountsAndStop(server, log('server')),
  };

  function runOnServer(run: ResolvedRun): RunOnServer {
    const { profile } = run;
    const limitPct = run.maxOverheadPct;
    const policy = policyOn(workload.name, run.policy);
    const progress = log(run.title);
    // Each point of the run's concurrency is a measurement of its own; a point other than the workload's own threads
    // and cores gets its own run id and hash, so the history compares it only with the same point.
    const points = pointsOf(run);
    const pointKey = (point: ConcurrencyPoint, open?: { ratePerS: number }) => {
      const today = !open && isDefaultPoint(point, workload, external);
      const hash = configHash(profile, {
        id: run.id,
        optionFileSha256: run.optionFile?.sha256 ?? null,
        traffic: run.traffic,
        ...(today ? {} : { concurrency: point }),
        ...(open ? { openLoopPct: OPEN_LOOP_PCT } : {}),
      });
      if (open) {
        return {
          runId: `${run.id}@${openLoopLabel(point)}`,
          title: `${run.title} · open loop at ${open.ratePerS} tx/s, ${point.threads} threads, ${point.cores} cores`,
          configHash: hash,
        };
      }
      return today
        ? { runId: run.id, title: run.title, configHash: hash }
        : {
            runId: `${run.id}@${pointLabel(point)}`,
            title: `${run.title} · ${point.threads} threads, ${point.cores} cores`,
            configHash: hash,
          };
    };
    // Lifecycle checks and the calibration go with the workload's own point when the run measures it, else its first.
    const firstPoint = (points.find((p) => isDefaultPoint(p, workload, external)) ??
      points[0]) as ConcurrencyPoint;
    let lifecycle: ReturnType<typeof lifecycleContext> | undefined;
    let connections: TrafficConnections | undefined;
    // A run with a script or added load gets an A/A of its own traffic; others share the suite's.
    let ownCalibration: Calibration | null = null;
    const sessions: AccountSession[] = [];
    // Each closed-loop point's measurement, by point: the open-loop point's rate comes from its baseline.
    const measuredAt = new Map<string, Measurement>();
    // A point at other threads or cores than the suite's A/A gets an A/A of its own: noise, and the p99 change's null
    // control, differ with concurrency.
    const calibratedAt = new Map<string, Calibration>();
    let skipReason: string | null = null;

    const key = (point: ConcurrencyPoint = firstPoint, open?: { ratePerS: number }): ResultKey =>
      resultKey(run, started().info, { workload: workload.name, limitPct, point: pointKey(point, open) });
    const traffic = () => {
      if (!connections)
        throw new Error(`${run.id}: the traffic's accounts were not created; see the first test`);
      return measuredRunTraffic(started(), run, {
        application: connections.application,
        configPath: config.configPath,
        inner: sysbench,
      });
    };
    // A previous point may have pinned the server: `all` gives it every CPU back.
    const unpin = async (point: ConcurrencyPoint) => {
      if (point.cores === 'all' && started().pinCpus && cpus > 1) await started().pinCpus?.(`0-${cpus - 1}`);
    };

    async function check(step: LifecycleStep): Promise<Outcome> {
      if (!lifecycle) throw new Error(`${run.id}: the run did not start; see the error of its first test`);
      try {
        const result = await step.run(lifecycle);
        const record: ResultRecord = { ...key(), kind: 'lifecycle', check: result };
        const failure = (result.details as { failure?: unknown } | undefined)?.failure;
        if (!result.ok && typeof failure === 'string') return { record, failure: `${run.id}: ${failure}` };
        return {
          record,
          expectations: [
            { label: `${run.title}: ${result.check}`, observed: result.observed, expected: result.expected },
          ],
        };
      } catch (error) {
        if (!server) return { error };
        const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
        return {
          record: {
            ...key(),
            kind: 'lifecycle',
            check: { check: step.id, expected: 'completes', observed, ok: false },
          },
          error,
        };
      }
    }

    async function calibrateRun(): Promise<Outcome> {
      if (needsOwnCalibration(run.traffic) && connections) {
        const measured = traffic();
        const planned = planFor({ workload, traffic: measured.traffic });
        if (planned.job.script) await prepareMeasurement(started(), planned, progress, measured.runner);
        ownCalibration = await calibrate(started(), planned, {
          progress,
          interference: policy.interference,
          ...seamsFor(measured.runner),
        });
      }
      const applies = ownCalibration ?? calibration;
      if (!applies) throw new Error('The shared A/A calibration did not finish; see its test');
      return { record: { ...key(), kind: 'calibration', calibration: applies } };
    }

    async function calibratePoint(point: ConcurrencyPoint): Promise<Outcome> {
      const measured = traffic();
      await unpin(point);
      const own = await calibrate(started(), planFor({ workload, point, traffic: measured.traffic }), {
        progress: log(`A/A at ${point.threads} threads`),
        interference: policy.interference,
        ...seamsFor(measured.runner),
      });
      calibratedAt.set(pointLabel(point), own);
      return {
        record: { ...key(point), kind: 'calibration', calibration: own },
        expectations: [
          {
            label: `the A/A interval at ${point.threads} threads should contain 0: the design is biased or the machine drifted`,
            observed: own.containsZero,
            expected: true,
          },
        ],
      };
    }

    async function measurePoint(
      point: ConcurrencyPoint,
      open?: { ratePerS: number; baseline: Measurement },
    ): Promise<Outcome> {
      // Decided from the settings: measuring traffic the plugin does not audit would price an idle plugin.
      if (run.userFilter?.refusal) return { failure: `${run.id}: ${run.userFilter.refusal}` };
      const measured = traffic();
      await unpin(point);
      const planned = planFor({
        workload,
        point,
        traffic: measured.traffic,
        ...(open && { ratePerS: open.ratePerS }),
        bankedS,
        arms: pluginSubject(profile).arms,
      });
      const raised = bankLine(planned.plan.budgetS, workload);
      if (raised) progress(raised);
      const measurement = await measureRun(started(), profile, planned, {
        limitPct,
        calibration: calibratedAt.get(pointLabel(point)) ?? ownCalibration ?? calibration,
        progress,
        interference: policy.interference,
        ...seamsFor(measured.runner),
        traffic: measured.seen,
        maxP99IncreasePct: run.maxP99IncreasePct ?? null,
      });
      bankedS = afterGate(bankedS, workload, measurement.wallS);
      const { runId } = pointKey(point, open);
      if (!open) measuredAt.set(pointLabel(point), measurement);
      const record: ResultRecord = {
        ...key(point, open),
        kind: 'measurement',
        measurement: {
          ...measurement,
          threads: point.threads,
          cores: point.cores,
          ...(runId !== run.id && { sweepOf: run.id }),
          ...(open && {
            openLoop: {
              ratePerS: open.ratePerS,
              ofBaselinePct: OPEN_LOOP_PCT,
              baselineTps: open.baseline.baselineTps,
              baselineRunId: pointKey(point).runId,
            },
          }),
        },
      };
      const at =
        runId === run.id
          ? ''
          : open
            ? ` in an open loop at ${open.ratePerS} tx/s (${point.threads} threads, ${point.cores} cores)`
            : ` at ${point.threads} threads (${point.cores} cores)`;
      const where = `${run.title}${at} on ${started().info.flavor} ${started().info.version}, ${workload.name} workload`;
      const failure = limitFailure(measurement, policy, where);
      return failure ? { record, failure } : { record };
    }

    async function openLoop(point: ConcurrencyPoint): Promise<Outcome> {
      const baseline = measuredAt.get(pointLabel(point));
      if (!baseline) {
        return {
          skip: `the closed-loop point at ${point.threads} threads did not finish, so no baseline sets the rate`,
        };
      }
      return measurePoint(point, { ratePerS: openLoopRate(baseline.baselineTps), baseline });
    }

    async function machineRates(point: ConcurrencyPoint) {
      const { traffic: measuredTraffic, runner } = traffic();
      return readMachineRates(started(), {
        job: planFor({ workload, point, traffic: measuredTraffic }).job,
        pinned: point.cores === 'pinned',
        turnOff: profile.disable,
        runner,
        logFile: profile.log.file,
      });
    }

    // The counted channel: a server of its own under callgrind, after the wall clock has finished with the CPUs.
    async function count(): Promise<Outcome> {
      const why = await countedUnavailable(config);
      if (why && config.counted === 'on') return { failure: `${run.id}: AUDITBENCH_COUNTED=on, but ${why}` };
      if (why) return { skip: `not counted: ${why}` };
      // traffic.added goes per transaction under valgrind, scaled by the run's own wall-clock throughput; the
      // counted on arms must log the audit events per transaction the wall clock logged.
      const own = points.find((p) => isDefaultPoint(p, workload, external)) ?? points[0];
      const measured = own ? measuredAt.get(pointLabel(own)) : undefined;
      // The machine's rates, read on the wall-clock server while it is warm and before the counted one starts.
      const rates = own && measured ? await machineRates(own) : null;
      const countedAlone = await countPluginRun(config, run, {
        job: workload,
        configHash: key().configHash ?? null,
        wallClock: {
          tps: measured?.baselineTps ?? null,
          eventsPerTx: wallClockEventsPerTx(measured?.auditEvents),
        },
        progress,
      });
      const counted =
        rates && measured
          ? withPrediction(countedAlone, rates, { pct: measured.overheadPct, ci95: measured.overheadCi95 })
          : countedAlone;
      progress(`counted: ${countedLine(counted)}`);
      if (counted.prediction) progress(counted.prediction.line);
      return { record: { ...key(), kind: 'counted', counted } };
    }

    const tests: PlannedTest[] = [
      ...lifecycleSteps.beforeMeasure.map((step) => ({ kind: 'check' as const, title: step.title, step })),
      { kind: 'calibration', title: 'A/A calibration of this server and workload applies' },
    ];
    for (const point of points) {
      const today = points.length === 1 && isDefaultPoint(point, workload, external);
      if (!isDefaultPoint(point, workload, external)) {
        tests.push({
          kind: 'point-calibration',
          title: `A/A calibration at ${point.threads} threads (${point.cores} cores) shows no overhead`,
          point,
        });
      }
      tests.push({
        kind: 'measurement',
        title: today
          ? `overhead under the ${workload.name} workload is within ${limitPct}%`
          : `overhead at ${point.threads} threads (${point.cores} cores) under the ${workload.name} workload is within ${limitPct}%`,
        point,
      });
    }
    // Closed-loop latency mostly mirrors throughput; at a fixed arrival rate, what the plugin adds queues.
    const openPoint = openLoopPoint(run.openLoop, points);
    if (openPoint) {
      tests.push({
        kind: 'open-loop',
        title: `open loop at ${OPEN_LOOP_PCT}% of the baseline's throughput (${openPoint.threads} threads, ${openPoint.cores} cores) under the ${workload.name} workload is within ${limitPct}%`,
        point: openPoint,
      });
    }
    if (config.target === 'local' && config.counted !== 'off') {
      tests.push({
        kind: 'counted',
        title: 'counted cost per transaction under callgrind, beside the wall clock',
      });
    }
    tests.push(
      ...lifecycleSteps.afterMeasure.map((step) => ({ kind: 'check' as const, title: step.title, step })),
    );

    return {
      run,
      heading: `${run.id}: ${run.title}`,
      tests,
      async open() {
        // The previous run's plugin may linger until a restart (MariaDB answers UNINSTALL with 1620).
        if (runsStarted++ > 0) await started().restart();
        connections = await trafficConnections(started(), run.traffic.accounts);
        sessions.push(accountSession(connections.checks), accountSession(connections.application));
        const [checks, application] = sessions as [AccountSession, AccountSession];
        lifecycle = lifecycleContext(started(), profile, {
          checks,
          application,
          ...(run.userFilter ? { audited: run.userFilter.audited, refusal: run.userFilter.refusal } : {}),
        });
        skipReason = await unavailableReason(started(), profile);
        progress(skipReason ? `skipped: ${skipReason}` : `run ${run.id}, limit ${limitPct}%`);
        // What the run's option file would have aimed at production, and where this run keeps it instead.
        for (const line of run.outsideOptions.moved.map(movedLine)) progress(line);
        for (const line of run.outsideOptions.leftOut.map(leftOutLine)) progress(line);
      },
      async perform(planned) {
        if (skipReason) return { skip: skipReason };
        switch (planned.kind) {
          case 'check':
            return check(planned.step);
          case 'calibration':
            return calibrateRun();
          case 'point-calibration':
            return calibratePoint(planned.point);
          case 'measurement':
            return measurePoint(planned.point);
          case 'open-loop':
            return openLoop(planned.point);
          case 'counted':
            return count();
        }
      },
      async close() {
        for (const session of sessions.splice(0)) await session.close();
      },
    };
  }
}
