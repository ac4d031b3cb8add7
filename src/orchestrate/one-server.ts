import { type Progress, prepareMeasurement } from '../bench/measure-overhead.ts';
import { planFor } from '../bench/measure-plan.ts';
import type { SysbenchRunner } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { StartedServer } from '../servers/started-server.ts';
import {
  dropAccountsAndStop,
  type TrafficConnections,
  trafficConnections,
} from '../servers/traffic-accounts.ts';
import { type MeasuredRunTraffic, measuredRunTraffic } from '../traffic/run-traffic.ts';
import { runnerAs } from '../workload/run-as.ts';
import type { Workload } from '../workload/workload.ts';
import { getWorkload } from '../workload/workloads.ts';
import type { Seams } from './seams.ts';

// The server a sequence measures on, shared by the runs' sequence and the gate's: started once, its tables loaded as
// the first run's application account, restarted between runs, its traffic's accounts dropped before it stops.

/** A progress line's heading: what is going on, and on which server once it started. */
export type Heading = (what: string, server: StartedServer | undefined) => string;

export interface OneServer {
  readonly config: Environment;
  readonly workload: Workload;
  readonly seams: Seams;
  start(): Promise<void>;
  /** The started server; throws when it did not start. */
  started(): StartedServer;
  /** A progress line under a heading: `[what · … · workload] message`. */
  log(what: string): Progress;
  /** sysbench's tables, loaded as the accounts' application (the runner that logs in as it), or as the harness's. */
  loadTables(accounts: MeasuredTraffic['accounts'] | undefined, progress: Progress): Promise<SysbenchRunner>;
  /**
   * Before each run that installs a plugin, but the first: the previous run's plugin may linger until a restart
   * (MariaDB answers UNINSTALL with 1620). A run skipped on this server takes none.
   */
  nextRun(): Promise<void>;
  /** The run's accounts on this server, and its measured traffic through them (its script, its added load). */
  traffic(run: ResolvedRun, configPath: string): Promise<RunTraffic>;
  /** An external server keeps nothing of the run: the traffic's accounts go with it. */
  stop(): Promise<void>;
}

export interface RunTraffic {
  connections: TrafficConnections;
  /** A fresh measured traffic for each measurement (its added load counts what it sent from then). */
  measured(): MeasuredRunTraffic;
}

export function oneServer(config: Environment, seams: Seams, heading: Heading): OneServer {
  const workload = getWorkload(config.workload);
  let server: StartedServer | undefined;
  let runs = 0;
  const started = (): StartedServer => {
    if (!server) throw new Error('The server did not start; see the error of the first test');
    return server;
  };
  const log = (what: string) => (message: string) =>
    seams.log(`[${heading(what, server)} · ${workload.name}] ${message}`);
  return {
    config,
    workload,
    seams,
    started,
    log,
    async start() {
      server = await seams.startServer(config);
      log('server')(`started on 127.0.0.1:${server.connection.port}`);
    },
    async loadTables(accounts, progress) {
      const runner = accounts
        ? runnerAs((await trafficConnections(started(), accounts)).application, seams.sysbench)
        : seams.sysbench;
      await prepareMeasurement(started(), planFor({ workload }), progress, runner);
      return runner;
    },
    async nextRun() {
      if (runs++ > 0) await started().restart();
    },
    async traffic(run, configPath) {
      const connections = await trafficConnections(started(), run.traffic.accounts);
      const measured = () =>
        measuredRunTraffic(started(), run, {
          application: connections.application,
          configPath,
          inner: seams.sysbench,
        });
      return { connections, measured };
    },
    stop: () => dropAccountsAndStop(server, log('server')),
  };
}
