import { readFileSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import {
  type CommandResult,
  createExampleRepo,
  type DbaRepo,
  removePackedTarball,
} from '../test/support/dba-repo.ts';
import {
  expectLiveUnchanged,
  type LiveServer,
  leftOutByName,
  productionLines,
  startLive,
  watchListening,
} from '../test/support/live-server.ts';

// Use from another repository: examples/your-vitest/ copied as shipped into a fresh git repository (its
// auditbench.config.ts, vitest.config.ts, audit/, ops/ and package.json), this project packed beside it and installed
// offline as a DBA installs it (`npm install --save-dev ./auditbench-<version>.tgz`), and driven with `npx auditbench`;
// then the DBA's own `npx vitest run` measures the example's one run, `pci`, on quick (the smallest workload that
// still decides: one block of 4 pairs), once: the runs suite and the overhead test's bench.run() share the
// invocation's measurement (src/orchestrate/measured-once.ts). `npx auditbench bench` from a DBA's repository is the
// Action's push in suites/gate-from-repo.suite.ts.

// `pci` also stands for the example sweep's CONNECT-only and DDL/DCL runs under `test` (suites/runs.suite.ts leaves
// them out): an option file, connections, DDL and DCL added. On a branch, its option file becomes the DBA's production
// one: the example's audit settings narrowed to CONNECT, then the live server's datadir, socket, port, pid file, error
// log and audit log, on every interface (test/support/live-server.ts), which the compliance tests' server must leave
// alone.
const exampleDir = fileURLToPath(new URL('../examples/your-vitest', import.meta.url));
const shipped = (file: string) => readFileSync(path.join(exampleDir, file), 'utf8');

// Type-checked only, beside the example's files: a custom profile built from the exported helpers, and a name that is
// not a built-in profile.
const customProfile = `import { defineConfig, type PluginProfile, type ProfileName, profiles, setGlobals, sql } from 'auditbench';

const name: ProfileName = 'server_audit';
const ours: PluginProfile = {
  ...profiles[name],
  title: 'server_audit, our build',
  enable: [sql('SET GLOBAL server_audit_logging = ON'), ...setGlobals({ server_audit_events: "'CONNECT'" })],
};
export const config = defineConfig({ runs: [{ plugin: ours }, { plugin: 'general_log' }] });
// @ts-expect-error: not a built-in profile's name
export const typo = defineConfig({ runs: [{ plugin: 'server_adit' }] });
`;
// This repository's TypeScript: the example does not ship one, and the check is of the package's .d.ts.
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const tscOptions = ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--types', 'node'];
const typeChecked = [
  'auditbench.config.ts',
  'vitest.config.ts',
  'audit/compliance.test.ts',
  'custom-profile.ts',
];

let repo: DbaRepo;
let live: LiveServer;
beforeAll(async () => {
  live = await startLive({ ...loadEnvironment(), target: 'local' });
  repo = await createExampleRepo(exampleDir);
}, 600_000);
afterAll(async () => {
  await repo?.[Symbol.asyncDispose]();
  await live?.[Symbol.asyncDispose]();
  await removePackedTarball();
});

/** The failed tests' lines, then the output's end: enough to tell which nested test failed and why. */
function output(result: { all: string }): string {
  const lines = result.all.split('\n');
  const failed = lines.filter((line) => /\bFAIL\b|×/.test(line)).slice(0, 20);
  return [...failed, '…', ...lines.slice(-30)].join('\n');
}

/** What `list --json` says of the workload and the runs, as far as these tests read it. */
interface ListedJson {
  workload: string;
  runs: { id: string; concurrency: string; leftOut: string[]; moved: string[] }[];
}

/** `list`, with the server binary wrapped to record how it is called (a listing may ask its version and defaults only). */
async function listRecordingServer(): Promise<{ list: CommandResult; asked: string[] }> {
  const calls = path.join(repo.dir, 'mariadbd-calls.log');
  const wrapper = path.join(repo.dir, 'mariadbd');
  const real = (
    await repo.exec('sh', ['-c', 'command -v mariadbd || echo /usr/sbin/mariadbd'])
  ).stdout.trim();
  await writeFile(wrapper, `#!/bin/sh\necho "$*" >> ${calls}\nexec ${real} "$@"\n`, { mode: 0o755 });
  const list = await repo.auditbench(['list'], { env: { AUDITBENCH_MYSQLD: wrapper } });
  const asked = (await readFile(calls, 'utf8')).trim().split('\n');
  await rm(wrapper);
  await rm(calls);
  return { list, asked };
}

describe('npx auditbench in a DBA repository', () => {
  test('npm install with the example’s allowScripts warns about none, runs none, and leaves its package.json as shipped', async () => {
    expect(repo.installLog).not.toContain('install-scripts');
    // cpu-features' install script is node-gyp rebuild: it leaves a build/ folder when it runs.
    const built = await stat(path.join(repo.dir, 'node_modules', 'cpu-features', 'build')).catch(() => null);
    expect(built).toBeNull();
    // The example names the tarball as `npm install --save-dev` writes it.
    expect(await readFile(path.join(repo.dir, 'package.json'), 'utf8')).toBe(shipped('package.json'));
  });

  test('list shows the example’s run, its option file and its options, and starts no server', async () => {
    const { list, asked } = await listRecordingServer();
    expect(list.exitCode, output(list)).toBe(0);
    expect(list.stdout).toContain(
      'pci: server_audit for cardholder data: administrators, logins, DDL and DCL',
    );
    expect(list.stdout).toContain('option file     ops/pci.cnf');
    expect(list.stdout).toContain('loose-server_audit_events=CONNECT,QUERY_DDL,QUERY_DCL');
    expect(list.stdout).toContain(`1 run(s) in ${path.join(repo.dir, 'auditbench.config.ts')}`);
    expect(
      asked.every((args) => /^--version$|^--no-defaults --verbose --help$/.test(args)),
      asked.join('\n'),
    ).toBe(true);
  });

  test('--help and gate --help exit 0, an unknown command exits 2, --version is the package’s', async () => {
    const help = await repo.auditbench(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('usage: auditbench <command>');
    const gateHelp = await repo.auditbench(['gate', '--help']);
    expect(gateHelp.exitCode, output(gateHelp)).toBe(0);
    expect(gateHelp.stdout).toContain('auditbench gate');
    const unknown = await repo.auditbench(['frobnicate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const ours = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    expect((await repo.auditbench(['--version'])).stdout.trim()).toBe(ours.version);
  });

  test('tsc --noEmit type-checks the example and a custom profile against the package’s .d.ts', async () => {
    const probe = path.join(repo.dir, 'custom-profile.ts');
    await writeFile(probe, customProfile);
    const checked = await repo.exec(process.execPath, [
      tsc,
      ...tscOptions,
      '--types',
      'node',
      ...typeChecked,
    ]);
    await rm(probe);
    expect(checked.exitCode, output(checked)).toBe(0);
  });
});

// One configured run, measured by each entry: the same suite, so the same records.
const measured = { AUDITBENCH_RUNS: 'pci', AUDITBENCH_COUNTED: 'off' };
const vitestRun = (args: string[] = []) =>
  repo.exec('npx', ['--no-install', 'vitest', 'run', ...args], { env: measured, timeoutMs: 900_000 });

/** The names of the runs suite's test cases in the run's junit.xml, wherever the suite file sat. */
async function runsSuiteCases(): Promise<string[]> {
  const junit = await readFile(path.join(repo.dir, 'reports', 'junit.xml'), 'utf8');
  return [...junit.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)]
    .filter(([, file]) => file?.endsWith('suites/runs.suite.ts'))
    .map(([, , name]) => name ?? '');
}

/** The `pci` run's entries in the repository's history (runId is the configured run), with the fields of its identity. */
async function pciHistory() {
  const lines = (await readFile(path.join(repo.dir, 'reports', 'history.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.runId === 'pci')
    .map(({ runId, configHash, title, limitPct, workload }) => ({
      runId,
      configHash,
      title,
      limitPct,
      workload,
    }));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences Vitest colours its output with
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The lines of a run that quote a matcher's message and the records it found: what a DBA reads. */
const matcherLines = (all: string) =>
  plain(all)
    .split('\n')
    .filter((line) => /expected (a|no) record|cannot show|^\s+(CONNECT|QUERY|TABLE)\/|^\s+… and/.test(line));

/**
 * The example's tests that stand on DDL or DCL records. The password test reads the CREATE USER's record before the
 * bytes: without DCL it has no evidence, and fails.
 */
const FAIL_WITHOUT_DDL_DCL = [
  'DDL by an administrator is logged',
  'DCL by an administrator is logged',
  'a CREATE USER password is in no record and no log byte (PCI DSS 8.3.2)',
];

/** The compliance tests that failed, by title, from Vitest's summary of failures. */
const failedTitles = (all: string) =>
  [...plain(all).matchAll(/FAIL\s+auditbench\s+audit\/compliance\.test\.ts > [^>]+> (.+)$/gm)].map(
    ([, title]) => title?.trim(),
  );

/** The `pci` run was measured, passed and logged its events (in the run's own folder). */
async function expectMeasured(): Promise<void> {
  const results = resultsFileSchema.parse(
    JSON.parse(await readFile(path.join(repo.dir, 'reports', 'results.json'), 'utf8')),
  );
  const measured = results.results.filter((r) => r.runId === 'pci');
  expect(measured.length).toBeGreaterThan(0);
  expect(measured.map((r) => r.verdict)).not.toContain('fail');
  expect(measured.some((r) => (r.logBytesPerTxn ?? 0) > 0)).toBe(true);
}

/**
 * What `list --json` says on the branch: the one run, at bench's workload when none is set (standard, 8 threads, not
 * the quick workload this suite runs under), and the production file's places left out by name, its audit log moved.
 */
async function expectListedBeside(): Promise<void> {
  const listed = await repo.auditbench(['list', '--json'], { env: { AUDITBENCH_WORKLOAD: '' } });
  expect(listed.exitCode, output(listed)).toBe(0);
  const json = JSON.parse(listed.stdout) as ListedJson;
  expect(json.runs.map((r) => r.id)).toEqual(['pci']);
  expect(json.workload).toBe('standard');
  const [pci] = json.runs;
  expect(pci?.concurrency).toBe('8 threads (pinned cores)');
  expect(pci?.moved.join('\n')).toContain(
    `production writes ${live.where.auditLog} (server_audit_file_path); this run writes <run>/audit.log`,
  );
  // Each line names where it was read: `ops/pci.cnf:7 [mysqld]: datadir is left out: …`.
  const leftOut = pci?.leftOut.join('\n');
  for (const option of leftOutByName) {
    expect(leftOut).toMatch(new RegExp(`ops/pci\\.cnf:\\d+ \\[mysqld\\]: ${option} is left out`));
  }
}

describe('npx vitest run in a DBA repository, auditbench as a plugin', () => {
  test('the example as shipped: the compliance tests and its run pass in auditbench’s project, the run measured once', async () => {
    const run = await vitestRun();
    // What a DBA reads at the end: the files' and tests' counts, and the exit code.
    console.log(`npx vitest run: exit ${run.exitCode}\n${plain(run.all).split('\n').slice(-8).join('\n')}`);
    expect(run.exitCode, `${matcherLines(run.all).join('\n')}\n${output(run)}`).toBe(0);
    await expectMeasured();
    // The DBA's file ran in auditbench's project, beside the runs suite (whichever reused the other's measurement
    // is the short one, often under the line's 30 s).
    expect(plain(run.all)).toMatch(
      /time by file \([^)]* in 2 files\): .*(audit\/compliance\.test\.ts|runs\.suite\.ts)/,
    );
    expect((await runsSuiteCases()).length).toBeGreaterThan(3);
    // The runs suite and the overhead test's bench.run() take the same run: whichever file comes second reuses it.
    const reused = plain(run.all)
      .split('\n')
      .filter((line) => line.includes('measured earlier in this invocation by '));
    expect(reused, output(run)).toHaveLength(1);
    expect(reused[0]).toMatch(
      /measured earlier in this invocation by (audit\/compliance\.test\.ts|node_modules\/auditbench\/suites\/runs\.suite\.ts): its A\/A and measurements are reused/,
    );
    const [entry, ...more] = await pciHistory();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ runId: 'pci', workload: 'quick' });
  });

  test('a branch making pci.cnf production’s, narrowed to CONNECT: list leaves its places out, the live server is left alone, the DDL, DCL and password tests fail with the matchers’ messages', async () => {
    await repo.exec('git', ['checkout', '-q', '-b', 'connect-only']);
    const narrowed = shipped('ops/pci.cnf').replace(
      /^server_audit_events = .*$/m,
      'server_audit_events = CONNECT',
    );
    await repo.commit(
      { 'ops/pci.cnf': `${narrowed}${productionLines(live)}` },
      'production’s option file, auditing connections only',
    );
    await expectListedBeside();
    // Quiet while the facts are read: nothing of ours touches the live server between the two readings.
    const before = await live.facts();
    const watching = watchListening(before.pid);
    // The overhead test left out: nothing is measured.
    const run = await vitestRun(['-t', 'PCI DSS']);
    const listening = watching.stop();
    console.log(matcherLines(run.all).join('\n'));
    expect(run.exitCode, output(run)).toBe(1);
    await expectLiveUnchanged(live, before, listening);
    expect(new Set(failedTitles(run.all))).toEqual(new Set(FAIL_WITHOUT_DDL_DCL));
    expect(plain(run.all)).toContain(
      'expected a record matching { user: "admin", statement: /^CREATE TABLE shop\\.cards/ }, none of',
    );
    expect(plain(run.all)).toContain(
      'expected a record matching { user: "admin", statement: /^DROP USER \'cardholder_ro\'/ }, none of',
    );
  });
});
