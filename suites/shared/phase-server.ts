import type { TestContext } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { unavailableReason } from '../../src/plugins/availability.ts';
import { runSteps } from '../../src/plugins/steps.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';
import { resultKey } from '../../src/runs/result-key.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { ConnectionOptions, StartedServer } from '../../src/servers/started-server.ts';
import { dropTrafficAccounts, trafficConnections } from '../../src/servers/traffic-accounts.ts';
import { prepareSysbench } from '../../src/workload/sysbench-runner.ts';
import type { Workload } from '../../src/workload/workload.ts';

/**
 * One fresh server per run for a suite of phases (completeness, faults): started and the plugin installed in
 * `beforeAll`, each phase a test whose record carries the run suite's key, the server and the traffic's accounts
 * gone in `afterAll`.
 */
export interface PhaseServer {
  log(message: string): void;
  /**
   * Starts the server and installs the plugin; false, logged, when the run is skipped on it (`refuse` says why first,
   * or the plugin is unavailable there).
   */
  start(refuse?: (server: StartedServer) => string | null): Promise<boolean>;
  /** The started server; throws when it did not start. */
  server(): StartedServer;
  /** sysbench's tables, loaded as the run's application account; that account. */
  prepareTables(): Promise<ConnectionOptions>;
  /** In a test: skips with the reason `start` gave; the started server, or throws when it did not start. */
  ready(context: TestContext): StartedServer;
  /** The run suite's key, so a phase's record joins the run's result. */
  key(server: StartedServer): ResultKey;
  /** Drops the traffic's accounts (logging a failure) and stops the server. */
  stop(): Promise<void>;
}

export function phaseServer(
  suite: string,
  run: ResolvedRun,
  config: Environment,
  workload: Workload,
): PhaseServer {
  const { profile } = run;
  let started: StartedServer | undefined;
  let skipReason: string | null = null;
  const log = (message: string) => console.log(`[${suite} · ${run.title}] ${message}`);
  const server = () => {
    if (!started) throw new Error('The server did not start; see the error of the first test');
    return started;
  };
  return {
    log,
    server,
    async start(refuse) {
      started = await startServer(config);
      skipReason = refuse?.(started) ?? (await unavailableReason(started, profile));
      if (skipReason) {
        log(`skipped: ${skipReason}`);
        return false;
      }
      await runSteps(started, profile.install, `Installing ${profile.name}`);
      return true;
    },
    async prepareTables() {
      log(`preparing ${workload.tables} tables × ${workload.tableSize} rows`);
      const { application } = await trafficConnections(server(), run.traffic.accounts);
      await prepareSysbench(application, workload);
      return application;
    },
    ready(context) {
      if (skipReason) context.skip(skipReason);
      return server();
    },
    key: (s) =>
      resultKey(run, s.info, {
        workload: workload.name,
        limitPct: run.maxOverheadPct,
      }),
    async stop() {
      // The server keeps nothing of the run: the traffic's accounts go with it. One that died cannot drop them, and
      // must still be stopped.
      if (started) {
        await dropTrafficAccounts(started).catch((error: unknown) =>
          log(
            `could not drop the traffic's accounts: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }
      await started?.stop();
    },
  };
}
