import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { countedRecord, describeCounted } from '../src/counted/count-run.ts';
import {
  type CountedPlan,
  type CountedServer,
  type CountedSubject,
  countArms,
  countedJob,
  startCountedServer,
} from '../src/counted/counted-ab.ts';
import { countedIdentity } from '../src/counted/identity.ts';
import { countedUnavailable } from '../src/counted/run-counted.ts';
import type { PluginProfile } from '../src/plugins/profile.ts';
import { setGlobals } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import type { SysbenchJob } from '../src/workload/workload.ts';
import { getWorkload } from '../src/workload/workloads.ts';

/**
 * The counted channel (src/counted) on one local server under callgrind, with server_audit, SQL_ERROR_LOG and the
 * general log installed together and each counted off against on in turn: what a plugin adds is well above zero,
 * arms repeat within 1%, a plugin with nothing to log adds nothing, and failing statements give SQL_ERROR_LOG a
 * cost. `./auditbench bench` counts each run on a server of its own (suites/shared/runs-suite.ts): server_audit's
 * count through that path is the Action's push in suites/gate-from-repo.suite.ts, which asserts what this suite
 * asserted of server_audit until 2026-12-04 (the same plugin counted twice). server_audit stays installed here, so
 * the general log and SQL_ERROR_LOG are counted beside it as before.
 */
const config = loadEnvironment();
const why = await countedUnavailable({
  target: config.target,
  counted: config.counted === 'off' ? 'auto' : config.counted,
});
const plan: CountedPlan = { events: 150, seed: 42, pairs: 3 };
const oltp = countedJob(getWorkload('smoke'));
const failing: SysbenchJob = {
  ...oltp,
  script: fileURLToPath(new URL('./counted/failing-statements.lua', import.meta.url)),
};
const installed = [profiles.server_audit, profiles.sql_error_log, profiles.general_log] as PluginProfile[];

describe.skipIf(why !== null)(`counted channel under callgrind${why ? ` (skipped: ${why})` : ''}`, () => {
  let host: CountedServer | undefined;

  beforeAll(async () => {
    const setup: CountedSubject = {
      label: 'server_audit, SQL_ERROR_LOG and the general log',
      setup: installed.flatMap((p) => [...p.install, ...setGlobals(p.measureSettings), ...p.disable]),
      arms: { off: [], on: [] },
      log: null,
    };
    host = await startCountedServer(config, {
      workload: oltp,
      subject: setup,
      loader: async (s) => s.connection,
      progress: console.log,
    });
  });
  afterAll(() => host?.server.stop());

  async function count(profile: PluginProfile, workload: SysbenchJob, label: string) {
    if (!host) throw new Error('The counted server did not start; see the first error');
    const started = Date.now();
    const subject = { label, setup: [], arms: { off: profile.disable, on: profile.enable }, log: profile };
    const outcome = await countArms(host, { workload, subject, plan, progress: console.log });
    const identity = await countedIdentity(
      host.server,
      profile.soname,
      null,
      describeCounted(workload, plan),
    );
    const record = countedRecord(outcome, {
      subject: label,
      plan,
      identity,
      soname: profile.soname,
      startedMs: started,
    });
    for (const arm of record.arms)
      expect(arm.lostThreads, `${label}: an arm lost its threads' syscalls`).toBe(0);
    // Every arm's audit lines carry query ids of one width; connection ids are read and reported, not moved
    // (src/counted/id-widths.ts).
    expect(record.connectionIds, `${label}: the connection ids around the arms were not read`).toBeTruthy();
    const ids = record.queryIds;
    expect(ids, `${label}: the query ids around the arms were not read`).toBeTruthy();
    if (ids)
      expect(String(ids.last).length, `${label}: ${JSON.stringify(ids)}`).toBe(String(ids.first).length);
    return record;
  }

  test('the general log adds instructions and bytes to every transaction, arms within 1%', async () => {
    const r = await count(profiles.general_log, oltp, 'general log');
    const { instructions, logBytes } = r.figures;
    expect(instructions.pctCi95?.[0]).toBeGreaterThan(0.5);
    // Arms repeated within 0.45% quiet and 0.52% loaded (docs/measurements/2026-12-04-counted.md); 1% leaves room.
    expect(instructions.spreadPct.off).toBeLessThanOrEqual(1);
    expect(instructions.spreadPct.on).toBeLessThanOrEqual(1);
    expect(logBytes.addedPerTx).toBeGreaterThan(100);
    expect(r.topFunctions).toHaveLength(10);
  });

  test('SQL_ERROR_LOG on OLTP without errors adds nothing (within ±0.5%)', async () => {
    const r = await count(profiles.sql_error_log, oltp, 'SQL_ERROR_LOG, OLTP');
    expect(Math.abs(r.figures.instructions.pct ?? Number.NaN)).toBeLessThanOrEqual(0.5);
    expect(r.figures.logBytes.addedPerTx).toBe(0);
  });

  test('SQL_ERROR_LOG costs instructions and log bytes for each failing statement', async () => {
    const r = await count(profiles.sql_error_log, failing, 'SQL_ERROR_LOG, failing statements');
    // One failing statement per transaction: what it adds per transaction is its cost per failing statement.
    expect(r.figures.instructions.addedCi95?.[0]).toBeGreaterThan(0);
    expect(r.figures.logBytes.addedPerTx).toBeGreaterThan(50);
    expect(r.figures.events.addedPerTx).toBeCloseTo(1, 1);
  });
});
