import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { formatFaultRecord } from '../reporters/format/format-faults.ts';
import { loadEnvironment } from '../src/config/env.ts';
import type { FaultContext } from '../src/faults/context.ts';
import { faultFsUnavailable } from '../src/faults/fault-fs.ts';
import { faultPhase, faultsUnsupported, prepareFaults } from '../src/faults/fault-phase.ts';
import { type FaultName, faultNames } from '../src/faults/fault-profile.ts';
import { receiverFaultsUnsupported } from '../src/faults/receiver-faults.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import type { ResolvedRun } from '../src/runs/runs.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { getWorkload } from '../src/workload/workloads.ts';
import { phaseServer } from './shared/phase-server.ts';
import { receiverFaultSuite } from './shared/receiver-fault-suite.ts';

/**
 * What each plugin does to the server when its log's disk fills, freezes, or the file is moved or truncated under it,
 * and when logging is switched on into a directory it cannot write (src/faults, docs/faults.md). One fresh local
 * server per plugin, its log on a small ext4 the harness mounts in the datadir and always removes. With
 * AUDITBENCH_FAULTS=receiver, a syslog run's own rsyslogd paused, killed and its socket removed instead (or as well).
 */
const config = loadEnvironment();
const workload = getWorkload(config.workload);

function faultSuite(run: ResolvedRun): void {
  const { profile } = run;
  const unsupported =
    (receiverFaultsUnsupported(profile) === null
      ? 'it sends to syslog, where the disk faults move no file: ask for AUDITBENCH_FAULTS=receiver'
      : null) ??
    faultsUnsupported(profile) ??
    faultFsUnavailable();
  if (unsupported) {
    test.skip(`faults: ${run.title}: ${unsupported}`, () => {});
    return;
  }
  const phases = phaseServer('faults', run, config, workload);
  const { log } = phases;
  let ctx: FaultContext | undefined;

  async function fault(context: TestContext, name: FaultName) {
    const server = phases.ready(context);
    if (!ctx) throw new Error('The fault filesystem was not prepared; see the error of the first test');
    const record = await faultPhase(ctx, name);
    context.task.meta.auditbench = { ...phases.key(server), kind: 'faults', fault: record };
    log(formatFaultRecord(record));
    expect(record.mismatches, `${run.title}, ${name}: behaviour differs from the profile`).toEqual([]);
  }

  describe(`faults: ${run.id}: ${run.title}`, () => {
    beforeAll(async () => {
      const local = (server: StartedServer) =>
        server.info.target === 'local'
          ? null
          : `the fault phase mounts filesystems in a local server's datadir; this target is ${server.info.target}`;
      if (!(await phases.start(local))) return;
      // sysbench as the run's application account; the probe's markers log in as the server's admin.
      const application = await phases.prepareTables();
      ctx = await prepareFaults(phases.server(), profile, { workload, application, progress: log });
    });
    afterAll(async () => {
      // The mount goes before the server: unmounting a filesystem the server still writes is only lazy.
      await ctx?.fs.remove();
      await phases.stop();
    });

    for (const name of faultNames) test(name, (context) => fault(context, name));
  });
}

for (const run of await loadRuns(config, profiles)) {
  if (config.faultSets.includes('disk')) faultSuite(run);
  if (config.faultSets.includes('receiver')) receiverFaultSuite(run, config, workload);
}

/** Reads the child's stdout until it says its filesystem is frozen; the mount point, or null if it exits first. */
async function frozenMount(child: ResultPromise): Promise<string | null> {
  let out = '';
  for await (const chunk of child.stdout ?? []) {
    out += String(chunk);
    const at = /FROZEN (\S+)/.exec(out);
    if (at?.[1]) return at[1];
  }
  return null;
}

const mountsUnder = async (dir: string) =>
  (await execa('findmnt', ['-rn', '-o', 'TARGET'])).stdout.split('\n').filter((m) => m.startsWith(`${dir}/`));

describe('faults: a run killed with SIGKILL mid-freeze', () => {
  const why = !config.faultSets.includes('disk')
    ? 'the disk faults were not asked for (AUDITBENCH_FAULTS)'
    : config.target === 'local'
      ? faultFsUnavailable()
      : 'the fault phase runs on the local target only';
  test.skipIf(why !== null)(
    'leaves no mount, frozen filesystem, server or temp dir (the reaper)',
    async () => {
      const child = execa(process.execPath, ['--import', 'tsx', 'suites/faults-sigkill-child.mts'], {
        reject: false,
        stderr: 'inherit',
      });
      const mountPoint = await frozenMount(child);
      expect(mountPoint, 'the child did not get to a frozen filesystem').not.toBeNull();
      const dir = path.dirname(path.dirname(mountPoint ?? ''));
      child.kill('SIGKILL');
      await child;
      const deadlineMs = Date.now() + 30_000;
      while (Date.now() < deadlineMs && ((await mountsUnder(dir)).length > 0 || existsSync(dir)))
        await sleep(500);
      expect(await mountsUnder(dir), `mounts left under ${dir}`).toEqual([]);
      expect(existsSync(dir), `${dir} left behind`).toBe(false);
    },
  );
});
