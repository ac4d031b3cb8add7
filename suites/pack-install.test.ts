import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, test } from 'vitest';
import { resultsFileSchema } from '../src/results/schema.ts';

// Use from another repository: pack this project, install the tarball into a fresh project without the network, and
// run that project's own auditbench.config.ts (a server_audit variant) on the smoke workload.
const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-pack-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const dbaConfig = `import { defineConfig } from 'auditbench';

export default defineConfig({
  runs: [
    {
      id: 'connect-only',
      plugin: 'server_audit',
      title: 'server_audit, connections only',
      settings: { server_audit_events: ['CONNECT'] },
    },
  ],
});
`;

interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}

/**
 * A project that depends on the packed tarball, with a lock file taken from this repository's: `npm install` of a
 * tarball would ask the registry for every dependency's metadata, which the npm cache does not keep; with a lock,
 * npm needs only the tarballs, and those are cached.
 */
async function writeOfflineProject(project: string, tarball: string): Promise<void> {
  const ours = JSON.parse(await readFile('package-lock.json', 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const root = ours.packages[''] as LockEntry;
  const spec = `file:${path.relative(project, tarball)}`;
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(tarball))
    .digest('base64')}`;
  const packages: Record<string, LockEntry> = {
    '': { name: 'dba-project', devDependencies: { auditbench: spec } },
    'node_modules/auditbench': {
      version: root.version,
      resolved: spec,
      integrity,
      dev: true,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  // Our run-time dependencies, where npm hoisted them for us; dev-only packages stay out.
  for (const [where, entry] of Object.entries(ours.packages)) {
    if (where !== '' && !entry.dev) packages[where] = { ...entry, dev: true };
  }
  const manifest = {
    name: 'dba-project',
    private: true,
    type: 'module',
    devDependencies: { auditbench: spec },
  };
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const lock = { name: 'dba-project', lockfileVersion: 3, requires: true, packages };
  await writeFile(path.join(project, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** This run's environment, less what names this repository's configuration, reports or runs. */
function nestedEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(VITEST|AUDITBENCH_(CONFIG|REPORT_DIR|RUNS)$)/.test(name) || name === 'NODE_ENV') delete env[name];
  }
  return {
    ...env,
    AUDITBENCH_WORKLOAD: 'smoke',
    // This run already holds the machine's run lock; the nested run measures while this test only waits.
    AUDITBENCH_RUN_LOCK_HELD: '1',
  };
}

test('a packed auditbench installs offline into another project and measures its configuration', async () => {
  const packed = await execa('npm', ['pack', '--silent', '--pack-destination', dir], { timeout: 120_000 });
  const tarball = path.join(dir, packed.stdout.trim().split('\n').at(-1) ?? '');
  const project = path.join(dir, 'dba-project');
  await mkdir(project);
  await writeOfflineProject(project, tarball);
  // npm ci --offline: every package comes from the npm cache this repository's own `npm ci` filled.
  await execa('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project, timeout: 300_000 });
  await writeFile(path.join(project, 'auditbench.config.ts'), dbaConfig);
  const run = await execa('npx', ['--no-install', 'auditbench', 'bench'], {
    cwd: project,
    reject: false,
    all: true,
    timeout: 1_200_000,
    env: nestedEnv(),
    extendEnv: false,
  });
  const tail = (run.all ?? '').split('\n').slice(-30).join('\n');
  expect(run.exitCode, `npx auditbench bench in the installed project failed:\n${tail}`).toBe(0);
  const results = resultsFileSchema.parse(
    JSON.parse(await readFile(path.join(project, 'reports', 'results.json'), 'utf8')),
  );
  const connectOnly = results.results.find((r) => r.runId === 'connect-only');
  expect(connectOnly?.settings?.global).toMatchObject({ server_audit_events: "'CONNECT'" });
  expect(connectOnly?.measurement?.verdict, tail).toBeDefined();
  expect(
    connectOnly?.lifecycle.every((c) => c.ok),
    JSON.stringify(connectOnly?.lifecycle),
  ).toBe(true);
});
