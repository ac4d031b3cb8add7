import { readFileSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import { createDbaRepo, type DbaRepo, removePackedTarball } from '../test/support/dba-repo.ts';
import {
  expectLiveUnchanged,
  type LiveServer,
  leftOutByName,
  productionLines,
  startLive,
  watchListening,
} from '../test/support/live-server.ts';

// Use from another repository: this project packed, installed offline as a dev dependency into a fresh git
// repository with its own configuration (three runs, two reading an option file), and driven with `npx auditbench`;
// then the DBA's own Vitest with auditbench's plugin (examples/your-vitest/) measures one run, `pci`, on quick (the
// smallest workload that still decides: one block of 4 pairs), once: the runs suite and the overhead test's
// bench.run() share the invocation's measurement (src/orchestrate/measured-once.ts). `npx auditbench bench` from a
// DBA's repository is the Action's push in suites/gate-from-repo.suite.ts; until 2026-12-06 this suite ran it again
// here (68 s), and the overhead test measured the run a second time inside `npx vitest run` (about 45 s).

// `pci` also stands for the example sweep's CONNECT-only and DDL/DCL runs under `test` (suites/runs.suite.ts leaves
// them out): an option file, connections, DDL and DCL added. Its option file is the DBA's production one: the example's
// audit settings, then the live server's datadir, socket, port, pid file, error log and audit log, on every interface
// (test/support/live-server.ts), which the run must leave alone.
const config = `import { defineConfig, fromCnf } from 'auditbench';

export default defineConfig({
  runs: [
    {
      id: 'limit-min',
      plugin: 'server_audit',
      title: 'server_audit, connections and DML cut at 1 character',
      // The smallest limit that cuts (0 keeps whole statements): the checks find their records by connection and
      // judge the one character kept (issue 40).
      settings: { server_audit_events: ['CONNECT', 'QUERY_DML'], server_audit_query_log_limit: 1 },
      // New connections, so the CONNECT class has traffic too (sysbench keeps its own).
      traffic: { added: { connectionsPerS: 20 } },
    },
    { id: 'ops-cnf', plugin: 'server_audit', cnf: fromCnf('ops/audit.cnf') },
    {
      id: 'pci',
      plugin: 'server_audit',
      title: 'server_audit for cardholder data: administrators, logins, DDL and DCL',
      cnf: fromCnf('ops/pci.cnf'),
      // Of the measured traffic only connections, DDL and DCL are logged: new connections and two statements a
      // second of each, so the plugin is not idle.
      traffic: {
        accounts: { application: 'shop_app', checks: 'auditor' },
        added: { connectionsPerS: 10, ddlPerS: 2, dclPerS: 2 },
      },
    },
  ],
});
`;

const optionFile = `[mariadb]
plugin_load_add = server_audit
server_audit_events = CONNECT,QUERY_DDL
server_audit_file_rotations = 3
`;

// Type-checked only: a custom profile built from the exported helpers, and a name that is not a built-in profile.
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

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    // Checks the package's .d.ts too, not only the repository's files.
    skipLibCheck: false,
    types: ['node'],
  },
  include: ['auditbench.config.ts', 'custom-profile.ts'],
};

// The DBA's own Vitest: its config, its compliance tests and the option file of the run they test, as shipped.
const example = (file: string) =>
  readFileSync(new URL(`../examples/your-vitest/${file}`, import.meta.url), 'utf8');
const yourVitest = {
  'vitest.config.ts': example('vitest.config.ts'),
  'audit/compliance.test.ts': example('audit/compliance.test.ts'),
  'ops/pci.cnf': example('ops/pci.cnf'),
};

let repo: DbaRepo;
let live: LiveServer;
beforeAll(async () => {
  live = await startLive({ ...loadEnvironment(), target: 'local' });
  repo = await createDbaRepo({
    ...yourVitest,
    'ops/pci.cnf': `${yourVitest['ops/pci.cnf']}${productionLines(live)}`,
    'auditbench.config.ts': config,
    'ops/audit.cnf': optionFile,
    'custom-profile.ts': customProfile,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
  });
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

describe('npx auditbench in a DBA repository', () => {
  test('npm ci with allowScripts denying the four install scripts warns about none and runs none', async () => {
    expect(repo.installLog).not.toContain('install-scripts');
    // cpu-features' install script is node-gyp rebuild: it leaves a build/ folder when it runs.
    const built = await stat(path.join(repo.dir, 'node_modules', 'cpu-features', 'build')).catch(() => null);
    expect(built).toBeNull();
  });

  test('list shows the three runs, the option files and their options, and starts no server', async () => {
    // The server binary, wrapped to record how it is called: a listing may ask its version and defaults only.
    const calls = path.join(repo.dir, 'mariadbd-calls.log');
    const wrapper = path.join(repo.dir, 'mariadbd');
    const real = (
      await repo.exec('sh', ['-c', 'command -v mariadbd || echo /usr/sbin/mariadbd'])
    ).stdout.trim();
    await writeFile(wrapper, `#!/bin/sh\necho "$*" >> ${calls}\nexec ${real} "$@"\n`, { mode: 0o755 });
    const list = await repo.auditbench(['list'], { env: { AUDITBENCH_MYSQLD: wrapper } });
    expect(list.exitCode, output(list)).toBe(0);
    expect(list.stdout).toContain('limit-min: server_audit, connections and DML cut at 1 character');
    expect(list.stdout).toMatch(/^ops-cnf: /m);
    expect(list.stdout).toContain('option file     ops/audit.cnf');
    expect(list.stdout).toContain('loose-server_audit_events=CONNECT,QUERY_DDL');
    expect(list.stdout).toContain(`3 run(s) in ${path.join(repo.dir, 'auditbench.config.ts')}`);
    const asked = (await readFile(calls, 'utf8')).trim().split('\n');
    expect(
      asked.every((args) => /^--version$|^--no-defaults --verbose --help$/.test(args)),
      asked.join('\n'),
    ).toBe(true);
    // Unset, the workload is bench's (standard, 8 threads), not the quick workload this suite runs under.
    const listed = await repo.auditbench(['list', '--json'], { env: { AUDITBENCH_WORKLOAD: '' } });
    const json = JSON.parse(listed.stdout) as {
      workload: string;
      runs: { id: string; concurrency: string }[];
    };
    expect(json.runs.map((r) => r.id)).toEqual(['limit-min', 'ops-cnf', 'pci']);
    expect(json.workload).toBe('standard');
    expect(json.runs[0]?.concurrency).toBe('8 threads (pinned cores)');
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

  test('tsc --noEmit type-checks the configuration and a custom profile against the package’s .d.ts', async () => {
    const tsc = await repo.exec('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.']);
    expect(tsc.exitCode, output(tsc)).toBe(0);
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

/** The `pci` run's entries in the repository's history (runId is the invocation), with the fields of its identity. */
async function pciHistory() {
  const lines = (await readFile(path.join(repo.dir, 'reports', 'history.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.configRun === 'pci')
    .map(({ configRun, configHash, title, limitPct, workload }) => ({
      configRun,
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

/** The compliance tests that failed, by title, from Vitest's summary of failures. */
const failedTitles = (all: string) =>
  [...plain(all).matchAll(/FAIL\s+auditbench\s+audit\/compliance\.test\.ts > [^>]+> (.+)$/gm)].map(
    ([, title]) => title?.trim(),
  );

/** The production file's places were left out by name, its audit log moved, and the run logged in its own folder. */
async function expectBeside(all: string): Promise<void> {
  expect(all).toContain(
    `production writes ${live.where.auditLog} (server_audit_file_path); this run writes <run>/audit.log`,
  );
  // Each line names where it was read: `ops/pci.cnf:12 [mysqld]: datadir is left out: …`.
  for (const option of leftOutByName) {
    expect(all).toMatch(new RegExp(`ops/pci\\.cnf:\\d+ \\[mysqld\\]: ${option} is left out`));
  }
  const results = resultsFileSchema.parse(
    JSON.parse(await readFile(path.join(repo.dir, 'reports', 'results.json'), 'utf8')),
  );
  const measured = results.results.filter((r) => r.runId === 'pci');
  expect(measured.length).toBeGreaterThan(0);
  expect(measured.map((r) => r.verdict)).not.toContain('fail');
  // Its events were logged, in the run's own folder: the live audit log is compared byte for byte after.
  expect(measured.some((r) => (r.logBytesPerTxn ?? 0) > 0)).toBe(true);
}

describe('npx vitest run in a DBA repository, auditbench as a plugin', () => {
  test('the compliance tests and the configured run pass in auditbench’s project, the run measured once, beside the live server', async () => {
    // Quiet while the facts are read: nothing of ours touches the live server between the two readings.
    const before = await live.facts();
    const watching = watchListening(before.pid);
    const run = await vitestRun();
    const listening = watching.stop();
    expect(run.exitCode, `${matcherLines(run.all).join('\n')}\n${output(run)}`).toBe(0);
    await expectBeside(plain(run.all));
    await expectLiveUnchanged(live, before, listening);
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
    expect(entry).toMatchObject({ configRun: 'pci', workload: 'quick' });
  });

  test('a branch narrowing server_audit_events to CONNECT fails the DDL and DCL tests with the matchers’ messages', async () => {
    await repo.exec('git', ['checkout', '-q', '-b', 'connect-only']);
    const narrowed = yourVitest['ops/pci.cnf'].replace(
      /^server_audit_events = .*$/m,
      'server_audit_events = CONNECT',
    );
    await repo.commit({ 'ops/pci.cnf': narrowed }, 'audit connections only');
    // The overhead test left out: nothing is measured.
    const run = await vitestRun(['-t', 'PCI DSS']);
    console.log(matcherLines(run.all).join('\n'));
    expect(run.exitCode, output(run)).toBe(1);
    expect(new Set(failedTitles(run.all))).toEqual(
      new Set(['DDL by an administrator is logged', 'DCL by an administrator is logged']),
    );
    expect(plain(run.all)).toContain(
      'expected a record matching { user: "admin", statement: /^CREATE TABLE shop\\.cards/ }, none of',
    );
    expect(plain(run.all)).toContain(
      'expected a record matching { user: "admin", statement: /^DROP USER \'cardholder_ro\'/ }, none of',
    );
  });
});
