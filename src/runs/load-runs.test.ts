import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { profiles } from '../profiles/index.ts';
import { loadPolicy, loadProjectionTraffic, loadRuns } from './load-runs.ts';

let dir = '';
const defineConfig = path.resolve('src/runs/define-config.ts');
const write = async (name: string, runs: string) => {
  const file = path.join(dir, name);
  await writeFile(
    file,
    `import { defineConfig, fromCnf } from ${JSON.stringify(defineConfig)};\nexport default defineConfig({ runs: ${runs} });\n`,
  );
  return file;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'auditbench-config-test-'));
  await writeFile(path.join(dir, 'audit.cnf'), '[mariadb]\nserver_audit_events = CONNECT\n');
  await writeFile(path.join(dir, 'broken.cnf'), '[mariadb]\nserver_audit_events = "CONNECT\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a configuration outside the repository resolves its runs and option files', async () => {
  const file = await write(
    'ok.config.ts',
    `[{ plugin: 'server_audit' }, { id: 'connect', plugin: 'server_audit', cnf: fromCnf('audit.cnf') }]`,
  );
  const runs = await loadRuns({ configPath: file, runIds: null }, profiles);
  expect(runs.map((r) => r.id)).toEqual(['server_audit', 'connect']);
  expect(runs[1]?.startupOptions).toEqual({ 'loose-server_audit_events': 'CONNECT' });
  const only = await loadRuns({ configPath: file, runIds: ['connect'] }, profiles);
  expect(only.map((r) => r.id)).toEqual(['connect']);
});

test.for([
  [
    'unknown plugin',
    `[{ plugin: 'server_audti' }]`,
    'runs[0].plugin is not a built-in profile: use one of server_audit',
  ],
  [
    'bad variable',
    `[{ plugin: 'server_audit', settings: { 'x; DROP': 1 } }]`,
    'is not a server variable name',
  ],
  ['bad value type', `[{ plugin: 'server_audit', settings: { a: { b: 1 } } }]`, 'runs[0].settings.a'],
  [
    'twice the same id',
    `[{ plugin: 'server_audit' }, { plugin: 'server_audit' }]`,
    "runs[1].id 'server_audit' is used by another run too",
  ],
  ['bad id', `[{ id: 'My Run', plugin: 'server_audit' }]`, 'runs[0].id must be 1–64 lowercase letters'],
  ['limit out of range', `[{ plugin: 'server_audit', maxOverheadPct: 140 }]`, 'runs[0].maxOverheadPct'],
  [
    'p99 limit out of range',
    `[{ plugin: 'server_audit', maxP99IncreasePct: -5 }]`,
    'runs[0].maxP99IncreasePct must be a number of percent above 0 and at most 1000 (how far p99 may rise), e.g. 25; got -5',
  ],
  [
    'p99 limit not a number',
    `[{ plugin: 'server_audit', maxP99IncreasePct: '20%' }]`,
    'runs[0].maxP99IncreasePct must be a number of percent',
  ],
  ['unknown key', `[{ plugin: 'server_audit', setting: {} }]`, 'runs[0]'],
  ['no runs', `[]`, 'runs must declare at least one run'],
  [
    'missing option file',
    `[{ plugin: 'server_audit', cnf: fromCnf('nope.cnf') }]`,
    'cannot read option file',
  ],
  [
    'malformed option file',
    `[{ plugin: 'server_audit', cnf: fromCnf('broken.cnf') }]`,
    'broken.cnf:2: the quote " is never closed',
  ],
] as [string, string, string][])('%s is one line naming the field', async ([name, runs, message]) => {
  const file = await write(`${name.replaceAll(' ', '-')}.config.ts`, runs);
  const error = await loadRuns({ configPath: file, runIds: null }, profiles).then(
    () => null,
    (e: Error) => e,
  );
  expect(error?.message).toContain(message);
  expect(error?.message.split('\n')).toHaveLength(1);
});

test('maxP99IncreasePct reaches the resolved run, and a run without it has none', async () => {
  const file = await write(
    'p99.config.ts',
    `[{ plugin: 'server_audit', maxP99IncreasePct: 25 }, { id: 'plain', plugin: 'server_audit' }]`,
  );
  const runs = await loadRuns({ configPath: file, runIds: null }, profiles);
  expect(runs.map((r) => r.maxP99IncreasePct)).toEqual([25, undefined]);
});

test('a missing file, or a run id the file lacks, stops the run', async () => {
  await expect(loadRuns({ configPath: path.join(dir, 'none.ts'), runIds: null }, profiles)).rejects.toThrow(
    /AUDITBENCH_CONFIG: no configuration file at .*none\.ts/,
  );
  const file = await write('one.config.ts', `[{ plugin: 'general_log' }]`);
  await expect(loadRuns({ configPath: file, runIds: ['server_audit'] }, profiles)).rejects.toThrow(
    'AUDITBENCH_RUNS names server_audit, which one.config.ts does not declare; its runs are general_log',
  );
});

test('a configuration loads as an ES module whatever its package\'s "type", as Vitest loads its own config', async () => {
  for (const [folder, manifest] of [
    ['cjs', '{ "name": "ops" }'],
    ['esm', '{ "name": "ops", "type": "module" }'],
  ] as const) {
    await mkdir(path.join(dir, folder));
    await writeFile(path.join(dir, folder, 'package.json'), manifest);
    const file = path.join(dir, folder, 'auditbench.config.ts');
    // Top-level await and import.meta exist only in an ES module: loaded as CommonJS, this file fails.
    await writeFile(
      file,
      `import { defineConfig } from ${JSON.stringify(defineConfig)};\nconst here: string = import.meta.url;\nawait Promise.resolve(here);\nexport default defineConfig({ runs: [{ plugin: 'general_log', id: '${folder}' }] });\n`,
    );
    const runs = await loadRuns({ configPath: file, runIds: null }, profiles);
    expect(runs.map((run) => run.id)).toEqual([folder]);
    expect(await readdir(path.join(dir, folder)), 'nothing written beside the configuration').toEqual([
      'auditbench.config.ts',
      'package.json',
    ]);
  }
  const broken = path.join(dir, 'cjs', 'broken.config.ts');
  await writeFile(broken, "export { default } from 'auditbench-no-such-package';\n");
  await expect(loadRuns({ configPath: broken, runIds: null }, profiles)).rejects.toThrow(
    /broken\.config\.ts could not be loaded: .*auditbench-no-such-package/,
  );
});

test("traffic comes from the configuration's, else the default", async () => {
  const withTraffic = await write(
    'traffic.config.ts',
    `[{ plugin: 'general_log' }], traffic: { name: 'shop', statementsPerS: { select: 10, write: 1, failing: 0 }, connectionsPerS: 1, peakFactor: 2, freeDiskGb: 5 }`,
  );
  expect((await loadProjectionTraffic({ configPath: withTraffic })).name).toBe('shop');
  const plain = await write('plain.config.ts', `[{ plugin: 'general_log' }]`);
  expect((await loadProjectionTraffic({ configPath: plain })).name).toContain('default');
});

test("the top level's limit, concurrency and policy are every run's that sets none of its own", async () => {
  const file = await write(
    'policy.config.ts',
    `[{ plugin: 'general_log' }, { id: 'own', plugin: 'general_log', maxOverheadPct: 30, threads: [1, 4], inconclusive: 'fail', idle: 'pass' }],
     maxOverheadPct: 12, threads: 8, cores: 'all', inconclusive: 'pass', interference: 'retry', maxRegressionPp: 3`,
  );
  const [stock, own] = await loadRuns({ configPath: file, runIds: null }, profiles);
  expect([stock?.maxOverheadPct, stock?.threads, stock?.cores, stock?.policy]).toEqual([
    12,
    [8],
    'all',
    { inconclusive: 'pass', idle: 'fail', interference: 'retry' },
  ]);
  expect([own?.maxOverheadPct, own?.threads, own?.cores, own?.policy]).toEqual([
    30,
    [1, 4],
    'all',
    { inconclusive: 'fail', idle: 'pass', interference: 'retry' },
  ]);
  const said: string[] = [];
  const policy = await loadPolicy({ configPath: file, maxRegressionPp: null }, { say: (l) => said.push(l) });
  expect(policy.history).toEqual({ maxRegressionPp: 3, maxCountedRisePp: 1 });
  expect(said).toEqual([]);
  // CI's variable is used over the file's, and says so.
  const overridden = await loadPolicy({ configPath: file, maxRegressionPp: 5 }, { say: (l) => said.push(l) });
  expect(overridden.history.maxRegressionPp).toBe(5);
  expect(said).toEqual([
    "AUDITBENCH_MAX_REGRESSION_PP=5 is used over policy.config.ts's maxRegressionPp (3)",
  ]);
});

test('a bad policy field is one line naming it', async () => {
  const file = await write('bad-policy.config.ts', `[{ plugin: 'general_log' }], inconclusive: 'maybe'`);
  await expect(loadRuns({ configPath: file, runIds: null }, profiles)).rejects.toThrow(
    `bad-policy.config.ts: inconclusive must be 'fail' or 'pass'; got "maybe"`,
  );
  const points = await write('bad-points.config.ts', `[{ plugin: 'general_log' }], maxCountedRisePp: 0`);
  await expect(loadPolicy({ configPath: points, maxRegressionPp: null })).rejects.toThrow(
    'bad-points.config.ts: maxCountedRisePp must be a number of percentage points above 0 and at most 100, e.g. 1; got 0',
  );
});
