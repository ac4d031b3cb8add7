import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { profiles } from '../../src/profiles/index.ts';
import { loadRuns } from '../../src/runs/load-runs.ts';
import { root } from './source-graph.ts';

// examples/your-vitest/ is a DBA's repository as shipped: copied into a fresh repository beside the packed tarball,
// `npm install && npx vitest run` must find everything it needs. suites/pack-install.suite.ts runs it live; this checks,
// in a second, that its parts agree: the files a repository needs are there, its configuration loads, and every run a
// test asks for is one the configuration has.
const example = path.join(root, 'examples', 'your-vitest');
let copy = '';
afterAll(() => (copy ? rm(copy, { recursive: true, force: true }) : undefined));

test('the example has what a repository needs to run it: package.json, auditbench.config.ts, vitest.config.ts', async () => {
  const files = await readdir(example);
  expect(files).toEqual(expect.arrayContaining(['package.json', 'auditbench.config.ts', 'vitest.config.ts']));
  const pkg = JSON.parse(await readFile(path.join(example, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const own = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
    peerDependencies: Record<string, string>;
  };
  // The tarball `npm pack` writes, and the Vitest and Vite lines auditbench takes as peers.
  expect(pkg.devDependencies.auditbench).toBe(`file:auditbench-${own.version}.tgz`);
  expect(`^${pkg.devDependencies.vitest}`).toBe(own.peerDependencies.vitest);
  expect(`^${pkg.devDependencies.vite}`).toBe(own.peerDependencies.vite);
});

test('its configuration loads, and every run its tests override to is one of its runs', async () => {
  // In a DBA's repository 'auditbench' is the installed package; here, the source it is built from.
  copy = await mkdtemp(path.join(tmpdir(), 'auditbench-example-'));
  await cp(example, copy, { recursive: true });
  const configPath = path.join(copy, 'auditbench.config.ts');
  const text = await readFile(configPath, 'utf8');
  const source = JSON.stringify(path.join(root, 'src', 'runs', 'define-config.ts'));
  await writeFile(configPath, text.replace("from 'auditbench'", `from ${source}`));
  const runs = await loadRuns({ configPath, runIds: null }, profiles);
  const ids = runs.map((r) => r.id);
  const tests = (await readdir(path.join(example, 'audit'))).filter((f) => f.endsWith('.test.ts'));
  const asked = await Promise.all(
    tests.map(async (f) => {
      const body = await readFile(path.join(example, 'audit', f), 'utf8');
      return [...body.matchAll(/test\.override\('runId', '([^']+)'\)/g)].map((m) => m[1]);
    }),
  );
  expect(asked.flat().length).toBeGreaterThan(0);
  for (const id of asked.flat()) expect(ids, `a test overrides runId to '${id}'`).toContain(id);
  // The option file's options are classified by the server's own --help (a few seconds, longer on a busy machine).
}, 60_000);
