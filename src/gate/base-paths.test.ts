import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { profiles } from '../profiles/index.ts';
import { loadRuns } from '../runs/load-runs.ts';
import { baseTreeResolver } from './base-paths.ts';
import { checkOutBase, openRepo } from './repo.ts';
import { selectForGate } from './select.ts';

// A real git repository in the temp directory: the base commits ops/audit.cnf with CONNECT and two symlinks to its
// folder (one absolute, into the work tree, one relative); the work tree then changes the file to CONNECT,QUERY.
let root = '';
let outside = '';
const BASE = '[mysqld]\nserver_audit_events=CONNECT\n';
const HEAD = '[mysqld]\nserver_audit_events=CONNECT,QUERY\n';
const git = (...args: string[]) => execa('git', args, { cwd: root });

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'auditbench-base-paths-'));
  outside = await mkdtemp(path.join(tmpdir(), 'auditbench-base-paths-outside-'));
  await writeFile(path.join(outside, 'shared.cnf'), BASE);
  await mkdir(path.join(root, 'ops'));
  await writeFile(path.join(root, 'ops', 'audit.cnf'), BASE);
  await symlink(path.join(root, 'ops'), path.join(root, 'ops-absolute'));
  await symlink('ops', path.join(root, 'ops-relative'));
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'base');
  await writeFile(path.join(root, 'ops', 'audit.cnf'), HEAD);
});
afterAll(async () => {
  for (const dir of [root, outside]) await rm(dir, { recursive: true, force: true });
});

test.for([
  ['relative', (): string => 'ops/audit.cnf'],
  ['absolute, into the work tree', (): string => path.join(root, 'ops', 'audit.cnf')],
  ['absolute with .. in between', (): string => `${root}/ops/../ops/./audit.cnf`],
  ['relative, out of the tree and back in by ..', (): string => `../${path.basename(root)}/ops/audit.cnf`],
  ['through a committed absolute symlink', (): string => 'ops-absolute/audit.cnf'],
  ['through a committed relative symlink', (): string => 'ops-relative/audit.cnf'],
  ['absolute, through the absolute symlink', (): string => path.join(root, 'ops-absolute', 'audit.cnf')],
  ['absolute, through the relative symlink, then ..', (): string => `${root}/ops-relative/../ops/audit.cnf`],
] as const)("the base's cnf given %s is read from the base's checkout", async ([, given]) => {
  const repo = await openRepo(root);
  await using base = await checkOutBase(repo, 'HEAD');
  const resolve = baseTreeResolver({ headRoot: repo.root, baseRoot: base.dir });
  const file = await resolve(base.dir, given());
  expect(file.startsWith(`${base.dir}${path.sep}`), file).toBe(true);
  expect(await readFile(file, 'utf8')).toBe(BASE);
});

test('a path outside the repository is read where it is, for both arms', async () => {
  const repo = await openRepo(root);
  await using base = await checkOutBase(repo, 'HEAD');
  const resolve = baseTreeResolver({ headRoot: repo.root, baseRoot: base.dir });
  expect(await resolve(base.dir, path.join(outside, 'shared.cnf'))).toBe(path.join(outside, 'shared.cnf'));
});

test('an absolute cnf changed on the branch selects its run, base CONNECT beside head CONNECT,QUERY', async () => {
  const config = path.join(root, 'auditbench.config.ts');
  const defineConfig = path.resolve('src/runs/define-config.ts');
  await writeFile(
    config,
    `import { defineConfig, fromCnf } from ${JSON.stringify(defineConfig)};\nexport default defineConfig({ runs: [{ id: 'ops-cnf', plugin: 'server_audit', cnf: fromCnf(${JSON.stringify(path.join(root, 'ops-absolute', 'audit.cnf'))}) }] });\n`,
  );
  await writeFile(path.join(root, 'ops', 'audit.cnf'), BASE);
  await git('add', 'auditbench.config.ts', 'ops/audit.cnf');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'config');
  await git('checkout', '-q', '-b', 'more-events');
  await writeFile(path.join(root, 'ops', 'audit.cnf'), HEAD);
  const selection = await selectForGate({
    userDir: root,
    packageDir: path.resolve('.'),
    base: { ref: 'main', from: '--base' },
    configPath: 'auditbench.config.ts',
  });
  try {
    expect(selection.items).toMatchObject([
      { kind: 'compare', runId: 'ops-cnf', differences: ['server_audit_events: CONNECT → CONNECT,QUERY'] },
    ]);
    // The suite reads the base's runs the same way, from the plan's base tree.
    const baseTree = selection.baseTree;
    expect(baseTree).not.toBeNull();
    if (!selection.baseConfig || !baseTree) return;
    const [baseRun] = await loadRuns({ configPath: selection.baseConfig, runIds: null }, profiles, {
      resolveFile: baseTreeResolver(baseTree),
    });
    expect(Object.values(baseRun?.startupOptions ?? {})).toEqual(['CONNECT']);
  } finally {
    await selection.checkout?.[Symbol.asyncDispose]();
    await git('checkout', '-q', 'main');
  }
});

test("an absolute traffic.script through a symlink is the base's in the base's runs, so a change to it selects its run, measured against its limit", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-base-script-'));
  const run = (...args: string[]) => execa('git', args, { cwd: dir });
  try {
    await mkdir(path.join(dir, 'load'));
    await writeFile(path.join(dir, 'load', 'app.lua'), '-- base\n');
    await symlink(path.join(dir, 'load'), path.join(dir, 'load-link'));
    const defineConfig = path.resolve('src/runs/define-config.ts');
    const script = JSON.stringify(path.join(dir, 'load-link', 'app.lua'));
    await writeFile(
      path.join(dir, 'auditbench.config.ts'),
      `import { defineConfig } from ${JSON.stringify(defineConfig)};\nexport default defineConfig({ traffic: { script: ${script} }, runs: [{ id: 'app', plugin: 'server_audit' }] });\n`,
    );
    await run('init', '-q', '-b', 'main');
    await run('add', '-A');
    await run('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'base');
    await writeFile(path.join(dir, 'load', 'app.lua'), '-- head: more statements\n');
    const selection = await selectForGate({
      userDir: dir,
      packageDir: path.resolve('.'),
      base: { ref: 'main', from: '--base' },
      configPath: 'auditbench.config.ts',
    });
    try {
      expect(
        selection.items.map((item) => [item.runId, item.kind, 'because' in item ? item.because : null]),
      ).toEqual([['app', 'alone', 'traffic changed (its accounts, added load or script)']]);
    } finally {
      await selection.checkout?.[Symbol.asyncDispose]();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
