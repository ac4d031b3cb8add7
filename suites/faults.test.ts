import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { profiles } from '../fixtures/plugins/index.ts';
import { formatFaultRecord } from '../reporters/format/format-faults.ts';
import { resolveLimitPct } from '../src/bench/pipeline.ts';
import { loadConfig } from '../src/config/env.ts';
import { loadRuns } from '../src/config/load-runs.ts';
import type { ResolvedRun } from '../src/config/runs.ts';
import type { FaultContext } from '../src/faults/context.ts';
import { faultFsUnavailable } from '../src/faults/fault-fs.ts';
import { faultPhase, faultsUnsupported, prepareFaults } from '../src/faults/fault-phase.ts';
import { type FaultName, faultNames } from '../src/faults/fault-profile.ts';
import { unavailableReason } from '../src/plugins/availability.ts';
import { runSteps } from '../src/plugins/steps.ts';
import { describeMachine } from '../src/results/machine.ts';
import type { ResultKey } from '../src/results/task-meta.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { prepareSysbench } from '../src/workload/sysbench-runner.ts';
import { getWorkload } from '../src/workload/workloads.ts';

/**
 * What each plugin does to the server when its log's disk fills, freezes, or the file is moved or truncated under it,
 * and when logging is switched on into a directory it cannot write (src/faults, docs/faults.md). One fresh local
 * server per plugin, its log on a small ext4 the harness mounts in the datadir and always removes.
 */
const config = loadConfig();
const workload = getWorkload(config.workload);

function faultSuite(run: ResolvedRun): void {
  const { profile } = run;
  const unsupported = faultsUnsupported(profile) ?? faultFsUnavailable();
  if (unsupported) {
    test.skip(`faults: ${run.title}: ${unsupported}`, () => {});
    return;
  }
  let server: StartedServer | undefined;
  let ctx: FaultContext | undefined;
  let skipReason: string | null = null;
  const log = (message: string) => console.log(`[faults · ${run.title}] ${message}`);

  const key = (s: StartedServer): ResultKey => ({
    runId: run.id,
    plugin: profile.name,
    title: run.title,
    server: s.info,
    workload: workload.name,
    limitPct: resolveLimitPct(run.maxOverheadPct, config.maxOverheadPct),
    machine: describeMachine(),
  });

  async function fault(context: TestContext, name: FaultName) {
    if (skipReason) context.skip(skipReason);
    if (!ctx || !server) throw new Error('The server did not start; see the error of the first test');
    const record = await faultPhase(ctx, name);
    context.task.meta.auditbench = { ...key(server), kind: 'faults', fault: record };
    log(formatFaultRecord(record));
    expect(record.mismatches, `${run.title}, ${name}: behaviour differs from the profile`).toEqual([]);
  }

  describe(`faults: ${run.id}: ${run.title}`, () => {
    beforeAll(async () => {
      server = await startServer(config);
      if (server.info.target !== 'local') {
        skipReason = `the fault phase mounts filesystems in a local server's datadir; this target is ${server.info.target}`;
        return log(`skipped: ${skipReason}`);
      }
      skipReason = await unavailableReason(server, profile);
      if (skipReason) return log(`skipped: ${skipReason}`);
      await runSteps(server, profile.install, `Installing ${profile.name}`);
      log(`preparing ${workload.tables} tables × ${workload.tableSize} rows`);
      await prepareSysbench(server.connection, workload);
      ctx = await prepareFaults(server, profile, workload, log);
    });
    afterAll(async () => {
      // The mount goes before the server: unmounting a filesystem the server still writes is only lazy.
      await ctx?.fs.remove();
      await server?.stop();
    });

    for (const name of faultNames) test(name, (context) => fault(context, name));
  });
}

for (const run of await loadRuns(config, profiles)) faultSuite(run);
