import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { mergeMeasuredTraffic } from '../src/config/measured-traffic.ts';
import { unavailableReason } from '../src/plugins/availability.ts';
import { profiles } from '../src/profiles/index.ts';
import {
  type SweepConfiguration,
  type SweptProfile,
  sweepConfigurations,
} from '../src/profiles/settings-sweep.ts';
import { resolveRun } from '../src/runs/runs.ts';
import { type AccountSession, accountSession } from '../src/servers/account-session.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { syslogReceiverProblem } from '../src/servers/syslog-problem.ts';
import { dropAccountsAndStop, trafficConnections } from '../src/servers/traffic-accounts.ts';
import { everyCheck } from './settings-sweep/every-check.ts';
import { type SweepRow, sweepSummary, sweepTable } from './settings-sweep/sweep-table.ts';

// The settings space, lifecycle checks only (no measurement), on one server: every configuration of
// src/profiles/settings-sweep.ts gets install → … → restart → uninstall, and every check must pass or be 'not
// applicable' with its reason. `./auditbench test` walks the small covering set; AUDITBENCH_SETTINGS_SWEEP=full walks
// them all (npm run test:settings-sweep; docs/measurements/2026-12-03-settings-sweep.md).
const config = loadEnvironment();
const full = config.settingsSweep === 'full';
const traffic = mergeMeasuredTraffic(undefined, undefined, null);
const syslogProblem = syslogReceiverProblem(config);

const shown = (c: SweepConfiguration): string => {
  const text = (v: unknown) => (Array.isArray(v) ? v.join(',') : String(v));
  const pairs = (settings: object | undefined, mark: string) =>
    Object.entries(settings ?? {}).map(([k, v]) => `${k}${mark}=${text(v)}`);
  const parts = [...pairs(c.settings, ''), ...pairs(c.startupOptions, ' (my.cnf)')];
  return parts.length > 0 ? parts.join(', ') : "the profile's own settings";
};

const scope = full ? 'every configuration' : 'the small covering set';

describe(`settings sweep, lifecycle checks only (${scope})`, () => {
  let server: StartedServer | undefined;
  const sessions: AccountSession[] = [];
  const rows: SweepRow[] = [];
  const log = (message: string) => console.log(`[settings sweep] ${message}`);

  beforeAll(async () => {
    server = await startServer(config);
    const connections = await trafficConnections(server, traffic.accounts);
    sessions.push(accountSession(connections.checks), accountSession(connections.application));
  });
  afterAll(async () => {
    if (rows.length > 0) {
      const file = path.join(config.reportDir, 'settings-sweep.md');
      await mkdir(config.reportDir, { recursive: true });
      await writeFile(file, `${sweepTable(rows)}\n`);
      log(`${sweepSummary(rows)}\ntable: ${file}`);
    }
    for (const session of sessions.splice(0)) await session.close();
    await dropAccountsAndStop(server, log);
  });

  for (const [name, configurations] of Object.entries(sweepConfigurations) as [
    SweptProfile,
    SweepConfiguration[],
  ][]) {
    for (const c of configurations.filter((each) => full || each.small)) {
      test(`${name} · ${c.id}: ${c.covers}`, async (context) => {
        const base = profiles[name];
        const run = resolveRun(
          { plugin: name, id: c.id, settings: c.settings, startupOptions: c.startupOptions },
          base,
          null,
          traffic,
        );
        if (!server) throw new Error('The server did not start; see the first error');
        const unavailable = await unavailableReason(server, run.profile);
        if (unavailable) context.skip(unavailable);
        // A local server has a receiver of its own where the machine allows one; elsewhere the records would reach
        // the host's /dev/log (src/servers/local-syslog.ts).
        const noReceiver = run.profile.expected.syslog && (await syslogProblem);
        if (noReceiver) context.skip(`sends to syslog, and ${noReceiver}`);
        const started = Date.now();
        const checks = await everyCheck(server, sessions as [AccountSession, AccountSession], run);
        const durationMs = Date.now() - started;
        rows.push({ profile: name, id: c.id, configuration: shown(c), checks, durationMs });
        const wrong = checks.filter((check) => !check.ok);
        expect(
          // The details say what the check sent and saw: what the next engineer needs to tell whose mistake it is.
          wrong.map(({ check, expected, observed, details }) => ({ check, expected, observed, details })),
          `${name} ${c.id} (${shown(c)}): a check's expectation does not hold`,
        ).toEqual([]);
      });
    }
  }
});
