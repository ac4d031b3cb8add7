import type { SysbenchRunner } from '../bench/subject.ts';
import { noAddedCounts } from '../config/added-traffic.ts';
import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { type AddedLoad, addedRates, assertLocal, sessionsOf, startAddedLoad } from './added-load.ts';

/** A SysbenchRunner that carries traffic.added, and what it sent so far. */
export interface AddedTrafficRunner extends SysbenchRunner {
  /** Counts sent since the runner was made, by kind (ADDED_KINDS) and errors. */
  sent(): Record<string, number>;
  /** The accounts the added load logs in as (the application's, DCL's administrator, the failing login). */
  accounts: string[];
}

// Past sysbench's --time the load has no reason to go on; this bounds it if sysbench hangs.
const OVERRUN_S = 60;

/**
 * Wraps a runner so that every run (warm-up, A/A, gate) carries the added load: it starts when sysbench's threads
 * start and stops when sysbench ends. New connections and DDL log in as `application` (the traffic's application
 * account, runnerAs's connection; by default the connection sysbench is handed), failed logins as the application
 * account with a wrong password, GRANT/REVOKE as the server's administrator.
 */
export function withAddedTraffic(
  runner: SysbenchRunner,
  server: StartedServer,
  traffic: MeasuredTraffic,
  application?: ConnectionOptions,
): AddedTrafficRunner {
  const rates = addedRates(traffic);
  const counts = noAddedCounts();
  const user = {
    app: (application ?? server.connection).user,
    admin: server.connection.user,
    failingUser: traffic.accounts.application,
  };
  const accounts = sessionsOf(rates.map(([k]) => k)).map((s) => user[s]);
  if (rates.length === 0) return { ...runner, sent: () => ({}), accounts: [] };
  assertLocal(server.connection);
  return {
    prepare: runner.prepare,
    accounts,
    sent: () => ({ ...Object.fromEntries(rates.map(([k]) => [k, counts[k]])), errors: counts.errors }),
    async run(conn, workload, opts) {
      let load: Promise<AddedLoad> | undefined;
      const { durationS } = opts;
      const sessions = {
        app: application ?? conn,
        admin: server.connection,
        failingUser: traffic.accounts.application,
      };
      const begin = () => {
        load ??= startAddedLoad(rates, sessions, counts, durationS + OVERRUN_S);
      };
      const outcome = await runner
        .run(conn, workload, {
          ...opts,
          onThreadsStarted: () => {
            begin();
            opts.onThreadsStarted?.();
          },
        })
        .then(
          (run) => ({ run }),
          (error: unknown) => ({ error }),
        );
      // A load that could not start (its session refused) fails the run: its figures would not carry it.
      const started = await load?.then(
        (l) => ({ l }),
        (error: unknown) => ({ error }),
      );
      if (started && 'l' in started) await started.l.stop();
      if ('error' in outcome) throw outcome.error;
      if (started && 'error' in started) throw started.error;
      return outcome.run;
    },
  };
}
