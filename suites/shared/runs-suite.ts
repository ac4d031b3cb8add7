import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { prepareMeasurement } from '../../src/bench/measure-overhead.ts';
import { calibrate, gateFailure, measureGate, resolveLimitPct } from '../../src/bench/pipeline.ts';
import { afterGate, bankLine, budgetFrom } from '../../src/bench/time-bank.ts';
import type { Config } from '../../src/config/env.ts';
import { countedLine, countedUnavailable, countPluginRun } from '../../src/counted/run-counted.ts';
import { unavailableReason } from '../../src/plugins/availability.ts';
import { type LifecycleStep, lifecycleContext, lifecycleSteps } from '../../src/plugins/lifecycle/index.ts';
import type { Calibration, Measurement } from '../../src/results/schema.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';
import { configHash } from '../../src/runs/config-hash.ts';
import { resultKey } from '../../src/runs/result-key.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { type AccountSession, accountSession } from '../../src/servers/account-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import {
  dropAccountsAndStop,
  type TrafficConnections,
  trafficConnections,
} from '../../src/servers/traffic-accounts.ts';
import { checkOwnScripts, measuredRunTraffic, needsOwnCalibration } from '../../src/traffic/run-traffic.ts';
import { runnerAs } from '../../src/workload/run-as.ts';
import {
  type ConcurrencyPoint,
  concurrencyPoints,
  isDefaultPoint,
  OPEN_LOOP_PCT,
  openLoopLabel,
  openLoopPoint,
  openLoopRate,
  pointLabel,
  pointWorkload,
} from '../../src/workload/threads.ts';
import { getWorkload } from '../../src/workload/workloads.ts';

/**
 * Every run of the configuration on one server: the tables are loaded and the A/A noise calibrated once, then each
 * run gets its lifecycle checks (under its settings), its overhead gate and its uninstall. A restart between runs
 * clears what the previous plugin left behind.
 */
export function runsSuite(config: Config, runs: ResolvedRun[]): void {
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
    concurrencyPoints(run, { threads: config.threads ?? null, cores: config.cores ?? null }, workload, {
      cpus: availableParallelism(),
      external,
    });
  const log = (what: string) => (message: string) => {
    const where = server ? `${server.info.flavor} ${server.info.version}` : 'server';
    console.log(`[${what} · ${where} · ${workload.name}] ${message}`);
  };

  describe(`${runs.length} run(s) on one server, ${workload.name} workload`, () => {
    beforeAll(async () => {
      server = await startServer(config);
      log('server')(`started on 127.0.0.1:${server.connection.port}`);
    });
    // An external server keeps nothing of the run: the traffic's accounts go with it.
    afterAll(() => dropAccountsAndStop(server, log('server')));

    // The shared A/A describes OLTP at the workload's own point with nothing added; a configuration whose every run
    // calibrates its own traffic or concurrency (a DBA's CONNECT-only run with added connections) does not spend a
    // block on it.
    const sharedUsed = runs.some(
      (run) =>
        !needsOwnCalibration(run.traffic) && pointsOf(run).some((p) => isDefaultPoint(p, workload, external)),
    );
    const firstTitle = sharedUsed
      ? 'A/A calibration (no plugin in either arm) shows no overhead'
      : 'the tables are loaded (every run calibrates an A/A of its own traffic)';
    test(firstTitle, async () => {
      const progress = log(sharedUsed ? 'A/A' : 'tables');
      // The tables are loaded and the noise measured as the first run's application account, as its traffic will be.
      const accounts = runs[0]?.traffic.accounts;
      const runner = accounts
        ? runnerAs((await trafficConnections(started(), accounts)).application)
        : undefined;
      await prepareMeasurement(started(), workload, progress, runner);
      if (!sharedUsed) return;
      calibration = await calibrate(started(), workload, {
        progress,
        interference: config.interference,
        ...(runner ? { runner } : {}),
      });
      expect(
        calibration.containsZero,
        'the A/A interval should contain 0: the design is biased or the machine drifted',
      ).toBe(true);
    });

    for (const run of runs) describeRun(run);
  });

  function describeRun(run: ResolvedRun): void {
    const { profile } = run;
    const limitPct = resolveLimitPct(run.maxOverheadPct, config.maxOverheadPct);
    const progress = log(run.title);
    // Each point of the run's concurrency is a measurement of its own; a point other than the workload's own threads
    // and cores gets its own run id and hash, so the history compares it only with the same point.
    const cpus = availableParallelism();
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
    let skipReason: string | null = null;
    let lifecycle: ReturnType<typeof lifecycleContext> | undefined;
    let connections: TrafficConnections | undefined;
    // A run with a script or added load gets an A/A of its own traffic; others share the suite's.
    let ownCalibration: Calibration | null = null;
    const sessions: AccountSession[] = [];

    const key = (point: ConcurrencyPoint = firstPoint, open?: { ratePerS: number }): ResultKey =>
      resultKey(run, started().info, { workload: workload.name, limitPct, point: pointKey(point, open) });
    const skipIfUnavailable = (context: TestContext) => {
      if (skipReason) context.skip(skipReason);
    };

    async function runCheck(step: LifecycleStep, context: TestContext): Promise<void> {
      skipIfUnavailable(context);
      if (!lifecycle) throw new Error(`${run.id}: the run did not start; see the error of its first test`);
      try {
        const result = await step.run(lifecycle);
        context.task.meta.auditbench = { ...key(), kind: 'lifecycle', check: result };
        const failure = (result.details as { failure?: unknown } | undefined)?.failure;
        if (!result.ok && typeof failure === 'string') expect.fail(`${run.id}: ${failure}`);
        expect(result.observed, `${run.title}: ${result.check}`).toEqual(result.expected);
      } catch (error) {
        if (!context.task.meta.auditbench && server) {
          const observed = `error: ${error instanceof Error ? error.message : String(error)}`;
          context.task.meta.auditbench = {
            ...key(),
            kind: 'lifecycle',
            check: { check: step.id, expected: 'completes', observed, ok: false },
          };
        }
        throw error;
      }
    }

    // Each closed-loop point's measurement, by point: the open-loop point's rate comes from its baseline.
    const measuredAt = new Map<string, Measurement>();
    // A point at other threads or cores than the suite's A/A gets an A/A of its own: noise, and the p99 change's null
    // control, differ with concurrency.
    const calibratedAt = new Map<string, Calibration>();

    async function calibratePoint(point: ConcurrencyPoint, context: TestContext): Promise<void> {
      skipIfUnavailable(context);
      if (!connections)
        throw new Error(`${run.id}: the traffic's accounts were not created; see the first test`);
      const measured = measuredRunTraffic(
        started(),
        run,
        connections.application,
        pointWorkload(workload, point),
        config.configPath,
      );
      if (point.cores === 'all' && started().pinCpus && cpus > 1) await started().pinCpus?.(`0-${cpus - 1}`);
      const own = await calibrate(started(), measured.workload, {
        progress: log(`A/A at ${point.threads} threads`),
        interference: config.interference,
        runner: measured.runner,
      });
      calibratedAt.set(pointLabel(point), own);
      context.task.meta.auditbench = { ...key(point), kind: 'calibration', calibration: own };
      expect(
        own.containsZero,
        `the A/A interval at ${point.threads} threads should contain 0: the design is biased or the machine drifted`,
      ).toBe(true);
    }
    const openPoint = openLoopPoint(run.openLoop, points);

    async function measurePoint(
      point: ConcurrencyPoint,
      context: TestContext,
      open?: { ratePerS: number; baseline: Measurement },
    ): Promise<void> {
      skipIfUnavailable(context);
      // Decided from the settings: measuring traffic the plugin does not audit would price an idle plugin.
      if (run.userFilter?.refusal) expect.fail(`${run.id}: ${run.userFilter.refusal}`);
      if (!connections)
        throw new Error(`${run.id}: the traffic's accounts were not created; see the first test`);
      const pointed = pointWorkload(workload, point);
      const measured = measuredRunTraffic(
        started(),
        run,
        connections.application,
        open ? { ...pointed, rate: open.ratePerS } : pointed,
        config.configPath,
      );
      // A previous point may have pinned the server: `all` gives it every CPU back.
      if (point.cores === 'all' && started().pinCpus && cpus > 1) await started().pinCpus?.(`0-${cpus - 1}`);
      const budgetS = budgetFrom(bankedS, measured.workload);
      const raised = bankLine(budgetS, measured.workload);
      if (raised) progress(raised);
      const measurement = await measureGate(
        started(),
        profile,
        { ...measured.workload, budgetS },
        {
          limitPct,
          calibration: calibratedAt.get(pointLabel(point)) ?? ownCalibration ?? calibration,
          progress,
          interference: config.interference,
          runner: measured.runner,
          traffic: measured.seen,
          maxP99IncreasePct: run.maxP99IncreasePct ?? null,
        },
      );
      bankedS = afterGate(bankedS, measured.workload, measurement.wallS);
      const { runId } = pointKey(point, open);
      if (!open) measuredAt.set(pointLabel(point), measurement);
      context.task.meta.auditbench = {
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
      const failure = gateFailure(measurement, config, where);
      if (failure) expect.fail(failure);
    }

    describe(`${run.id}: ${run.title}`, () => {
      beforeAll(async () => {
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
      });

      for (const step of lifecycleSteps.beforeMeasure) test(step.title, (context) => runCheck(step, context));

      test('A/A calibration of this server and workload applies', async (context) => {
        skipIfUnavailable(context);
        if (needsOwnCalibration(run.traffic) && connections) {
          const measured = measuredRunTraffic(
            started(),
            run,
            connections.application,
            workload,
            config.configPath,
          );
          if (measured.workload.script)
            await prepareMeasurement(started(), measured.workload, progress, measured.runner);
          ownCalibration = await calibrate(started(), measured.workload, {
            progress,
            interference: config.interference,
            runner: measured.runner,
          });
        }
        const applies = ownCalibration ?? calibration;
        if (!applies) throw new Error('The shared A/A calibration did not finish; see its test');
        context.task.meta.auditbench = { ...key(), kind: 'calibration', calibration: applies };
      });

      for (const point of points) {
        const today = points.length === 1 && isDefaultPoint(point, workload, external);
        const name = today
          ? `overhead under the ${workload.name} workload is within ${limitPct}%`
          : `overhead at ${point.threads} threads (${point.cores} cores) under the ${workload.name} workload is within ${limitPct}%`;
        if (!isDefaultPoint(point, workload, external)) {
          test(`A/A calibration at ${point.threads} threads (${point.cores} cores) shows no overhead`, (context) =>
            calibratePoint(point, context));
        }
        test(name, (context) => measurePoint(point, context));
      }
      // Closed-loop latency mostly mirrors throughput; at a fixed arrival rate, what the plugin adds queues.
      if (openPoint) {
        const name = `open loop at ${OPEN_LOOP_PCT}% of the baseline's throughput (${openPoint.threads} threads, ${openPoint.cores} cores) under the ${workload.name} workload is within ${limitPct}%`;
        test(name, (context) => {
          skipIfUnavailable(context);
          const baseline = measuredAt.get(pointLabel(openPoint));
          if (!baseline) {
            return context.skip(
              `the closed-loop point at ${openPoint.threads} threads did not finish, so no baseline sets the rate`,
            );
          }
          return measurePoint(openPoint, context, { ratePerS: openLoopRate(baseline.baselineTps), baseline });
        });
      }

      // The counted channel: a server of its own under callgrind, after the wall clock has finished with the CPUs.
      if (config.target === 'local' && config.counted !== 'off') {
        test('counted cost per transaction under callgrind, beside the wall clock', async (context) => {
          skipIfUnavailable(context);
          const why = await countedUnavailable(config);
          if (why && config.counted === 'on') expect.fail(`${run.id}: AUDITBENCH_COUNTED=on, but ${why}`);
          if (why) return context.skip(`not counted: ${why}`);
          // traffic.added goes per transaction under valgrind, scaled by the run's own wall-clock throughput.
          const own = points.find((p) => isDefaultPoint(p, workload, external)) ?? points[0];
          const wallClockTps = own ? (measuredAt.get(pointLabel(own))?.baselineTps ?? null) : null;
          const counted = await countPluginRun(
            config,
            run,
            workload,
            key().configHash ?? null,
            wallClockTps,
            progress,
          );
          progress(`counted: ${countedLine(counted)}`);
          context.task.meta.auditbench = { ...key(), kind: 'counted', counted };
        });
      }

      for (const step of lifecycleSteps.afterMeasure) test(step.title, (context) => runCheck(step, context));
      afterAll(async () => {
        for (const session of sessions.splice(0)) await session.close();
      });
    });
  }
}
