import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import type { FaultRecord } from '../src/results/fault-record.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import { type AccountSession, accountSession } from '../src/servers/account-session.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { syslogReceiverProblem } from '../src/servers/syslog-problem.ts';
import { dropAccountsAndStop, trafficConnections } from '../src/servers/traffic-accounts.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { everyCheck } from './settings-sweep/every-check.ts';
import { completenessSuite } from './shared/completeness-suite.ts';
import { receiverFaultSuite } from './shared/receiver-fault-suite.ts';

/**
 * Where production's audit log goes when not in a local file (issue 65), checked on the runs of
 * examples/log-destinations.config.ts without measuring: server_audit sending to syslog (ident payments, local3.notice)
 * gets its lifecycle checks, its completeness through the run's own receiver, and its receiver paused for 5 s under
 * load; the general log in its table gets its completeness, read from the table's CSV file. The other receiver faults
 * run by name (AUDITBENCH_FAULTS=receiver); the A/B of both runs is `bench`'s, with this file as its configuration.
 */
const config = loadEnvironment();
const workload = getWorkload(config.workload);
const runs = await loadRuns(
  { ...config, configPath: 'examples/log-destinations.config.ts', runIds: null },
  profiles,
);
const runOf = (id: string): ResolvedRun => {
  const run = runs.find((r) => r.id === id);
  if (!run) throw new Error(`examples/log-destinations.config.ts has no run ${id}`);
  return run;
};
const syslogRun = runOf('payments-syslog');
const tableRun = runOf('general-log-table');
// Where the machine cannot give a server a private /dev/log, a syslog run is refused: its parts skip with the reason.
const syslogProblem = await syslogReceiverProblem(config);

/** The syslog run's lifecycle on a server of its own: every check as its profile expects, the ident asserted. */
function lifecycleSuite(run: ResolvedRun): void {
  describe(`lifecycle: ${run.id}: ${run.title}`, () => {
    let server: StartedServer | undefined;
    const sessions: AccountSession[] = [];
    const log = (message: string) => console.log(`[lifecycle · ${run.title}] ${message}`);
    beforeAll(async () => {
      server = await startServer(config);
      const connections = await trafficConnections(server, run.traffic.accounts);
      sessions.push(accountSession(connections.checks), accountSession(connections.application));
    });
    afterAll(async () => {
      for (const session of sessions.splice(0)) await session.close();
      await dropAccountsAndStop(server, log);
    });
    test('every lifecycle check as the profile expects, the syslog ident, facility and priority asserted', async () => {
      if (!server) throw new Error('The server did not start; see the first error');
      const checks = await everyCheck(server, sessions as [AccountSession, AccountSession], run);
      const header = checks.find((check) => check.check === 'syslog-header');
      log(
        `${checks.filter((c) => c.ok).length} of ${checks.length} checks as expected; syslog-header: ${header ? JSON.stringify(header.observed) : 'not run'}`,
      );
      const wrong = checks.filter((check) => !check.ok);
      expect(
        wrong.map(({ check, expected, observed, details }) => ({ check, expected, observed, details })),
        `${run.id}: a lifecycle check's expectation does not hold`,
      ).toEqual([]);
      expect(header?.ok, 'the syslog-header check did not run').toBe(true);
    });
  });
}

/** The 5 s pause: the server stays up, the stall is seen, the receiver catches up with nothing lost or repeated. */
function pauseHolds(record: FaultRecord): void {
  const figures = record.receiver;
  expect(record.facts.serverUp, 'the server did not answer after the pause').toBe(true);
  // No marker acknowledged would make "0 lost" a pass on no evidence.
  expect(record.markersAcked, 'no marker was acknowledged around the pause').toBeGreaterThan(0);
  expect(figures?.recoverS, 'no marker reached the receiver after the pause').not.toBeNull();
  expect(
    record.markersLost,
    'markers lost across a pause: the socket queue and the blocked send keep them',
  ).toBe(0);
  expect(figures?.duplicated, 'markers written twice across the pause').toBe(0);
  expect(figures?.outOfOrder, 'markers out of order across the pause').toBe(0);
}

if (syslogProblem) {
  test.skip(`syslog run ${syslogRun.id}: ${syslogProblem}`, () => {});
} else {
  lifecycleSuite(syslogRun);
  completenessSuite(syslogRun, config, workload);
  receiverFaultSuite(syslogRun, config, workload, {
    names: ['receiver-paused'],
    expectations: { 'receiver-paused': pauseHolds },
  });
}
completenessSuite(tableRun, config, workload);
