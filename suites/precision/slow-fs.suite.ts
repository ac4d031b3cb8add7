import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../../src/config/env.ts';
import { privateRoot } from '../../src/faults/fault-fs.ts';
import { mountSlowFs, type SlowFs, slowFsUnavailable } from '../../src/faults/slow-fs.ts';
import {
  armOrder,
  bendOf,
  describeBend,
  formatSlowFsTable,
  type LogFs,
  logFsName,
  roundOrder,
  type SlowFsRow,
  slowFsSettings,
} from '../../src/faults/slow-fs-study.ts';
import { runSteps, setGlobals } from '../../src/plugins/steps.ts';
import { profiles } from '../../src/profiles/index.ts';
import { loadRuns } from '../../src/runs/load-runs.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import { defaultsFileArg } from '../../src/servers/cleanup.ts';
import { mountsUnder } from '../../src/servers/mounts.ts';
import { processesWithArg } from '../../src/servers/proc-table.ts';
import type { ConnectionOptions, StartedServer } from '../../src/servers/started-server.ts';
import { runSysbench } from '../../src/workload/sysbench-runner.ts';
import { getWorkload } from '../../src/workload/workloads.ts';
import { phaseServer } from '../../suites/shared/phase-server.ts';
import { buildSlowFs, slowFsBuildProblem } from '../../test/support/slow-fs-binary.ts';

// The slow log filesystem study (docs/slow-fs.md): server_audit's log on the datadir's own
// filesystem, then on a FUSE passthrough (test/slow-fs/slow_fs.c) that waits 0, 1, 5, 20 ms before each write; on
// each, sysbench with logging off and on. Root, local MariaDB, run by name only:
// AUDITBENCH_STUDY='delays=0,1,5,20 seconds=20 rounds=2' AUDITBENCH_WORKLOAD=smoke npm run bench:slow-fs
// Options are read first: a bad one stops the study before any server starts.
const settings = slowFsSettings(process.env);
const config = loadEnvironment();
const workload = getWorkload(config.workload);
const MOUNT_DIR = 'auditbench_slowfs';
const WARM_UP_S = 5;

// server_audit's file output only: the study moves its file, so a syslog run has nothing to put on the filesystem.
const studied = (run: ResolvedRun): string | null =>
  run.profile.name !== 'SERVER_AUDIT'
    ? `the slow log filesystem study measures server_audit; this run's plugin is ${run.profile.name}`
    : /syslog|^1$/i.test(String(run.profile.measureSettings.server_audit_output_type ?? '').trim())
      ? 'this run sends server_audit to syslog: there is no file to put on the slow filesystem'
      : null;

async function datadirOf(server: StartedServer): Promise<string> {
  const { rows } = await server.query('SELECT @@datadir AS datadir');
  return String(rows[0]?.datadir ?? '');
}

async function tpsOf(application: ConnectionOptions, seconds: number): Promise<number> {
  const run = await runSysbench(application, workload, { durationS: seconds });
  if (!run.ok) throw new Error(`sysbench's run was not valid: ${run.reason}`);
  return run.result.tps;
}

/** One filesystem's arms in this round: the log pointed there (logging off), then each arm; logging off after. */
async function measureRow(
  server: StartedServer,
  run: ResolvedRun,
  application: ConnectionOptions,
  fs: LogFs,
  round: number,
  binary: string,
): Promise<{ off: number; on: number }> {
  const { profile } = run;
  const support = profile.faults;
  if (!support) throw new Error(`${profile.name} has no way to move its log (profile faults.logIn)`);
  const datadir = await datadirOf(server);
  await runSteps(server, profile.disable, `Disabling ${profile.name}`);
  let mounted: SlowFs | null = null;
  try {
    if (fs.kind === 'fuse') mounted = await mountSlowFs(binary, datadir, MOUNT_DIR, fs.delayMs);
    // A fresh file on each row: the row's writes start from an empty log, as each fresh mount's does.
    await rm(path.join(datadir, 'server_audit.log'), { force: true });
    await runSteps(server, support.logIn(mounted ? MOUNT_DIR : '.'), `Moving ${profile.name}'s log`);
    const tps = { off: 0, on: 0 };
    for (const arm of armOrder(round)) {
      await runSteps(
        server,
        arm === 'on' ? profile.enable : profile.disable,
        `Switching ${profile.name} ${arm}`,
      );
      tps[arm] = await tpsOf(application, settings.seconds);
    }
    return tps;
  } finally {
    // Logging off closes the file, so the unmount is a plain one.
    await runSteps(server, profile.disable, `Disabling ${profile.name}`).catch(() => []);
    await mounted?.remove();
  }
}

function slowFsStudy(run: ResolvedRun): void {
  const phases = phaseServer('slow-fs', run, config, workload);
  const { log } = phases;
  let binary: string | undefined;
  let application: ConnectionOptions | undefined;
  let skip: string | null = studied(run);

  describe(`slow-fs: ${run.id}: ${run.title}`, () => {
    beforeAll(async () => {
      skip ??=
        config.target === 'local'
          ? await slowFsUnavailable()
          : 'the study mounts in a local server’s datadir';
      if (skip) return;
      skip = await slowFsBuildProblem();
      if (skip) return;
      if (!(await phases.start())) return;
      binary = await buildSlowFs(privateRoot(await datadirOf(phases.server())));
      application = await phases.prepareTables();
      const { profile } = run;
      await runSteps(
        phases.server(),
        setGlobals(profile.measureSettings),
        `Applying ${profile.name} settings`,
      );
      log(`warming up, ${WARM_UP_S} s`);
      await tpsOf(application, WARM_UP_S);
    });
    afterAll(async () => {
      await phases.stop();
    });

    test("throughput over the log filesystem's write delay, plugin off and on", async (context) => {
      if (skip) context.skip(skip);
      const server = phases.ready(context);
      if (!binary || !application) throw new Error('The study was not prepared; see the first error');
      const fsType = (
        await execa('findmnt', ['-n', '-o', 'FSTYPE', '-T', await datadirOf(server)])
      ).stdout.trim();
      const byName = new Map<string, SlowFsRow>();
      for (let round = 1; round <= settings.rounds; round++) {
        for (const fs of roundOrder(settings, fsType, round)) {
          const tps = await measureRow(server, run, application, fs, round, binary);
          const row = byName.get(logFsName(fs)) ?? { fs, offTps: [], onTps: [] };
          row.offTps.push(tps.off);
          row.onTps.push(tps.on);
          byName.set(logFsName(fs), row);
          log(`round ${round}, ${logFsName(fs)}: off ${tps.off.toFixed(0)} TPS, on ${tps.on.toFixed(0)} TPS`);
        }
      }
      const table = roundOrder(settings, fsType, 1).flatMap((fs) => byName.get(logFsName(fs)) ?? []);
      const bend = bendOf(table);
      const load = (await execa('uptime')).stdout.trim();
      log(['', ...formatSlowFsTable(table), '', describeBend(bend), `uptime: ${load}`].join('\n'));
      await mkdir(config.reportDir, { recursive: true });
      await writeFile(
        path.join(config.reportDir, 'slow-fs.json'),
        `${JSON.stringify({ recordedAt: new Date().toISOString(), workload: workload.name, server: server.info, settings, uptime: load, rows: table, bend }, null, 2)}\n`,
      );
      expect(table).toHaveLength(settings.delaysMs.length + 1);
    });
  });
}

for (const run of await loadRuns(config, profiles)) slowFsStudy(run);

/** Reads the child's stdout until it says the filesystem is mounted; the mount point, or null if it exits first. */
async function mountedAt(child: ResultPromise): Promise<string | null> {
  let out = '';
  for await (const chunk of child.stdout ?? []) {
    out += String(chunk);
    const at = /MOUNTED (\S+)/.exec(out);
    if (at?.[1]) return at[1];
  }
  return null;
}

describe('slow-fs: a study killed mid-write', () => {
  test.for(['SIGINT', 'SIGKILL'] as const)(
    'after %s: no mount, slow_fs daemon, server or temp dir left',
    async (signal, context) => {
      const why =
        config.target === 'local'
          ? ((await slowFsUnavailable()) ?? (await slowFsBuildProblem()))
          : 'the study runs on the local target only';
      if (why) context.skip(why);
      const child = execa(process.execPath, ['--import', 'tsx', 'suites/precision/slow-fs-kill-child.mts'], {
        reject: false,
        stderr: 'inherit',
      });
      const mountPoint = await mountedAt(child);
      expect(mountPoint, 'the child did not get to a mounted slow filesystem').not.toBeNull();
      const at = mountPoint ?? '';
      const dir = path.dirname(path.dirname(at));
      child.kill(signal);
      await child;
      const left = async () => ({
        mounts: await mountsUnder(dir),
        daemons: (await processesWithArg(at)).map((p) => p.pid),
        servers: (await processesWithArg(defaultsFileArg(dir))).map((p) => p.pid),
        dir: existsSync(dir),
      });
      const deadlineMs = Date.now() + 30_000;
      let now = await left();
      while (
        Date.now() < deadlineMs &&
        (now.mounts.length + now.daemons.length + now.servers.length > 0 || now.dir)
      ) {
        await sleep(500);
        now = await left();
      }
      expect(now, `left behind after ${signal}`).toEqual({
        mounts: [],
        daemons: [],
        servers: [],
        dir: false,
      });
    },
  );
});
