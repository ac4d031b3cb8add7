import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { type Environment, externalTargetRefusal, loadEnvironment } from '../config/env.ts';
import { bufferPoolProblem, memAvailableBytes } from '../config/memory-guard.ts';
import { noThreadsRefusal } from '../counted/thread-handling.ts';
import { profiles } from '../profiles/index.ts';
import { loadProjectionTraffic, loadRuns } from '../runs/load-runs.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { localOptionCatalogue } from '../servers/option-catalogue.ts';
import { type PluginDirOptions, pluginDirOptions } from '../servers/plugin-dir.ts';
import { serverOsUser } from '../servers/server-account.ts';
import { findServerBinary } from '../servers/server-binary.ts';
import { syslogReceiverProblem } from '../servers/syslog-problem.ts';
import { syslogRunRefusal } from '../servers/syslog-receiver.ts';

type Env = Record<string, string | undefined>;

export interface PreflightOptions {
  /** The run will start servers and sysbench (the suites project): probe the binaries and read the runs. */
  servers: boolean;
  /** How long --version probes may take (tests shorten it). */
  probeMs?: number;
}

// Characters my.cnf (#, quotes, backslash escapes, ;) would misread, or that /proc/self/mountinfo escapes (the
// watchdog compares its mount points raw).
const safePath = /^\/[\w./-]*$/;
const PROBE_MS = 10_000;

/**
 * Every check that can fail a run before anything starts, in the order a user fixes them: the settings' text
 * (loadEnvironment), then the folders they name, then the programs the run needs. Creates nothing; throws one line.
 */
export async function preflight(env: Env, options: PreflightOptions): Promise<Environment> {
  const config = loadEnvironment(env);
  await checkReportDir(config.reportDir);
  const tmpDir = await checkTmpDir(env.TMPDIR);
  if (config.pluginDir)
    await checkDir('AUDITBENCH_PLUGIN_DIR', config.pluginDir, 'the folder holding the plugin .so');
  if (!options.servers) return config;
  const { runs } = await checkConfiguration(config);
  // The machine's side of a syslog run (a /dev/log of the server's own), not the configuration's: list does not ask.
  const syslogRun = runs.find((run) => run.profile.expected.syslog !== undefined);
  if (syslogRun) {
    const problem = await syslogReceiverProblem(config);
    if (problem) throw new Error(syslogRunRefusal(syslogRun.id, problem));
  }
  if (config.target === 'local') {
    await findServerBinary(config.mysqldPath, config.searchPath, options.probeMs ?? PROBE_MS);
    if (await serverOsUser()) await checkReachableByOthers(tmpDir);
  }
  await checkSysbench(config.searchPath, options.probeMs ?? PROBE_MS);
  return config;
}

/**
 * The configuration's own refusals, which `bench` (through the preflight) and `list` make alike, each one line thrown
 * (exit 2): an external target not said to be disposable, the runs (their fields, their option files and startup
 * options: src/config/outside-options.ts; thread_handling=no-threads: src/counted/thread-handling.ts), a supplied plugin folder's *.cnf, and a buffer pool larger than this host's
 * MemAvailable. Probes of the machine (the server binary, sysbench) are not among them: `list` shows those as skips.
 */
export async function checkConfiguration(
  config: Environment,
): Promise<{ runs: ResolvedRun[]; pluginDir: PluginDirOptions | null }> {
  const refusal = externalTargetRefusal(config);
  if (refusal) throw new Error(refusal);
  const runs = await loadRuns(config, profiles);
  const oneAtATime = noThreadsRefusal(runs);
  if (oneAtATime) throw new Error(oneAtATime);
  await loadProjectionTraffic(config);
  const pluginDir = config.pluginDir
    ? await pluginDirOptions(
        config.pluginDir,
        await localOptionCatalogue(config.mysqldPath, config.searchPath),
      )
    : null;
  if (!config.largePool && config.target !== 'external') {
    const available = memAvailableBytes(await readFile('/proc/meminfo', 'utf8').catch(() => ''));
    const problem = available && bufferPoolProblem(runs, available, 'AUDITBENCH_LARGE_POOL');
    if (problem) throw new Error(problem);
  }
  return { runs, pluginDir };
}

async function checkReportDir(dir: string): Promise<void> {
  const name = 'AUDITBENCH_REPORT_DIR';
  const info = await stat(dir).catch(() => null);
  if (info && !info.isDirectory()) {
    throw new Error(`${name} '${dir}' is a file, not a directory: point it at a folder (created if missing)`);
  }
  // Missing is fine (the reporters create it); its nearest existing parent must take new entries.
  let existing = path.resolve(dir);
  while (!(await stat(existing).catch(() => null))) existing = path.dirname(existing);
  if (!(await stat(existing)).isDirectory()) {
    throw new Error(`${name} '${dir}' lies under '${existing}', which is a file: point it at a folder`);
  }
  if (!(await writable(existing))) {
    throw new Error(
      `${name} '${dir}': '${existing}' is not writable by this user: choose a folder you can write`,
    );
  }
}

async function checkTmpDir(raw: string | undefined): Promise<string> {
  if (raw === undefined) return '/tmp';
  const name = 'TMPDIR';
  if (!safePath.test(raw)) {
    throw new Error(
      `${name} must be an absolute path of letters, digits and _ . / - only (servers' my.cnf and watchdogs quote it as is); got '${raw}'`,
    );
  }
  await checkDir(name, raw, 'a writable folder, e.g. /tmp');
  if (!(await writable(raw))) throw new Error(`${name} '${raw}' is not writable by this user: use e.g. /tmp`);
  return raw;
}

async function checkDir(name: string, dir: string, what: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(
      `${name} '${dir}' ${info ? 'is not a directory' : 'does not exist'}: point it at ${what}`,
    );
  }
}

const writable = (dir: string) =>
  access(dir, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );

/** As root, servers run as 'mysql' and keep their files under TMPDIR: every folder above must let it through. */
async function checkReachableByOthers(tmpDir: string): Promise<void> {
  for (let dir = path.resolve(tmpDir); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `TMPDIR '${tmpDir}': '${dir}' is closed to other users, and servers run as the OS user mysql: use e.g. /tmp`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

async function checkSysbench(searchPath: string, probeMs: number): Promise<void> {
  const probe = await execa('sysbench', ['--version'], {
    reject: false,
    stdin: 'ignore',
    timeout: probeMs,
    env: { PATH: searchPath },
  });
  if (probe.timedOut)
    throw new Error(`sysbench did not answer --version within ${probeMs / 1000} s: reinstall it`);
  if (probe.exitCode !== 0 || !/^sysbench 1\./.test(String(probe.stdout))) {
    const why =
      probe.code === 'ENOENT'
        ? 'is not on PATH'
        : `answered --version with '${String(probe.stdout || probe.stderr).trim()}'`;
    throw new Error(
      `sysbench ${why}: install sysbench 1.0 (apt-get install sysbench); every plugin suite measures with it`,
    );
  }
}
