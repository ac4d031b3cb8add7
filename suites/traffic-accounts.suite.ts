import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { auditsTraffic } from '../src/plugins/lifecycle/audits-traffic.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import {
  accountsServer,
  measuredAsApplication,
  runChecks,
  thenUninstall,
} from './traffic-accounts/accounts-server.ts';
import { expectChecksAsTheirAccount, notApplication } from './traffic-accounts/root-use.ts';

// Nothing runs as root but what must: sysbench as the application account, the checks as theirs, root only for
// installing, settings, restarts and reading variables/status. Shown by the server's own processlist (during the
// measurement) and server_audit's log (the user of every event). About 3 minutes on smoke, one measured block.
const config = loadEnvironment();
const workload = getWorkload(config.workload);
const runs = await loadRuns(
  { configPath: 'suites/traffic-accounts/traffic-accounts.config.ts', runIds: null },
  profiles,
);
const runById = (id: string): ResolvedRun => {
  const run = runs.find((r) => r.id === id);
  if (!run) throw new Error(`suites/traffic-accounts/traffic-accounts.config.ts has no run '${id}'`);
  return run;
};
const everyone = runById('everyone');
const { application: APP, checks: CHECKS } = everyone.traffic.accounts;

describe(`traffic accounts on one server, ${workload.name} workload`, () => {
  const progress = (message: string) => console.log(`[traffic-accounts · ${workload.name}] ${message}`);
  const accounts = accountsServer(config, everyone.traffic.accounts, progress);
  const { started, context } = accounts;
  beforeAll(() => accounts.start());
  afterAll(() => accounts.stop());

  test('the accounts have only their own privileges, and a password root never prints', async () => {
    const { server, connections } = started();
    expect(connections.application).toMatchObject({ user: APP });
    expect(connections.application.password).not.toBe(server.connection.password);
    const grants = async (user: string) =>
      (await server.query(`SHOW GRANTS FOR '${user}'@'%'`)).rows.map((r) => String(Object.values(r)[0]));
    expect((await grants(APP)).join('\n')).not.toMatch(/ALL PRIVILEGES ON \*\.\*|SUPER|GRANT OPTION/);
    expect((await grants(CHECKS)).join('\n')).toMatch(/GRANT CREATE USER ON \*\.\*/);
  });

  test('every check of a configuration logging everyone passes; its log shows the checks as their account', async () => {
    const ctx = context(everyone);
    await thenUninstall(ctx, () => expectChecksAsTheirAccount(ctx, CHECKS));
  });

  test('auditing only the application account: the checks pass and the measured cost is above zero', async () => {
    const run = runById('application-only');
    const ctx = context(run);
    await thenUninstall(ctx, async () => {
      const results = await runChecks(ctx);
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(results.find((r) => r.check === 'logs-query')).toMatchObject({
        expected: false,
        observed: false,
      });

      const { measurement, seen } = await measuredAsApplication(started(), run, workload, progress);
      expect(seen.filter((t) => t.user === APP && t.command !== 'Sleep').length).toBeGreaterThan(0);
      expect(notApplication(seen, APP)).toEqual([]);
      // The cost of auditing the application was measured, not an idle plugin's: the log grew with the traffic and
      // the estimate is above zero. Its interval is not asked to clear zero: on smoke it has needed a second block to
      // clear it by 2.2 points (15.3% [2.2, 26.7]), so a run in a few could straddle by chance at a plain cost.
      expect(measurement.logBytesPerTxn ?? 0).toBeGreaterThan(0);
      if (measurement.auditEvents) expect(measurement.auditEvents.idle, measurement.reason).toBe(false);
      expect(measurement.overheadPct, measurement.reason).toBeGreaterThan(0);
    });
  });

  test('auditing an account the traffic does not use: refused before measuring, in one line', async () => {
    const run = runById('reporting-only');
    const line = run.userFilter?.refusal ?? '';
    expect(line).toMatch(
      new RegExp(
        `^server_audit_incl_users=reporting audits none of the measured traffic's accounts \\(application: ${APP}\\)`,
      ),
    );
    expect(line).not.toContain('\n');
    expect(await auditsTraffic.run(context(run))).toMatchObject({ ok: false, details: { failure: line } });
  });
});
