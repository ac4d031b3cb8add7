import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { inject } from 'vitest';
import { PACKING } from '../../suites/shared/pack-dir.ts';

// A DBA's repository for suites: this project packed once per process, installed offline as a dev dependency into a
// fresh git repository under the temp dir (given files, or a shipped example as it is), where files are committed and
// `npx auditbench …` runs as a DBA runs it.

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

interface LockEntry {
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** The lock's paths of these packages and of everything they depend on, found as Node finds them (nested first). */
function lockClosure(packages: Record<string, LockEntry>, names: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (from: string, name: string): void => {
    for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const where = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      const entry = packages[where];
      if (entry) {
        if (found.has(where)) return;
        found.add(where);
        const needs = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
        for (const dep of Object.keys(needs)) visit(where, dep);
        return;
      }
      if (dir === '') return;
    }
  };
  for (const name of names) visit('', name);
  return found;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's folder for the one `npm pack` the DBA-repository suites share (suites/shared/pack-dir.ts). */
    auditbenchPackDir: string;
  }
}

let packed: Promise<string> | null = null;

/**
 * `npm pack` of this project (its prepack builds dist/), once per run: into the folder the suites' global setup
 * provides (suites/shared/pack-dir.ts), where the next file finds it; elsewhere once per process. The tarball's path.
 */
export function packAuditbench(): Promise<string> {
  packed ??= (async () => {
    const shared = inject('auditbenchPackDir');
    const dir = shared ?? (await mkdtemp(path.join(tmpdir(), 'auditbench-tarball-')));
    // Without the run's folder, the tarball goes when this process does.
    if (!shared) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    // The background pack of the run's global setup (suites/shared/pack-dir.ts), if one is under way.
    for (let waitedS = 0; existsSync(path.join(dir, PACKING)); waitedS++) {
      if (waitedS >= 300) throw new Error(`the background npm pack in ${dir} took over 300 s`);
      await sleep(1_000);
    }
    const before = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
    if (before) return path.join(dir, before);
    const result = await execa('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: packageDir,
      timeout: 300_000,
    });
    return path.join(dir, result.stdout.trim().split('\n').at(-1) ?? '');
  })();
  return packed;
}

/**
 * Removes a tarball packed for this process alone (a suite's afterAll): Vitest's workers may be stopped before their
 * exit handlers run. The run's shared one is removed by the global setup's teardown.
 */
export async function removePackedTarball(): Promise<void> {
  const tarball = await packed?.catch(() => null);
  packed = null;
  if (tarball && !inject('auditbenchPackDir'))
    await rm(path.dirname(tarball), { recursive: true, force: true });
}

interface Manifest {
  name: string;
  devDependencies: Record<string, string>;
  [field: string]: unknown;
}

/**
 * The lock npm would write for these dev dependencies, taken from this repository's own: `npm install` without a
 * lock asks the registry for every dependency's metadata, which the npm cache does not keep; with a lock, npm needs
 * only the tarballs, and those are cached by this repository's own `npm ci`. A dependency other than auditbench must
 * be at the version this repository's lock has (the example's Vitest and Vite are).
 */
async function writeOfflineLock(project: string, manifest: Manifest, tarball: string): Promise<void> {
  const ours = JSON.parse(await readFile(path.join(packageDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const root = ours.packages[''] as LockEntry & { peerDependencies?: Record<string, string> };
  const { auditbench: spec, ...others } = manifest.devDependencies;
  for (const [name, version] of Object.entries(others)) {
    const locked = ours.packages[`node_modules/${name}`]?.version;
    if (locked !== version)
      throw new Error(
        `${name} ${version} in the DBA's package.json: this repository's lock has ${locked ?? 'none'}`,
      );
  }
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(tarball))
    .digest('base64')}`;
  const packages: Record<string, LockEntry> = {
    'node_modules/auditbench': {
      version: root.version,
      resolved: spec,
      integrity,
      dev: true,
      dependencies: root.dependencies,
      peerDependencies: root.peerDependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  // Our run-time dependencies and the DBA's others (vitest and vite, our peers), with everything they need, where
  // npm placed them for us; our other dev-only packages stay out.
  const wanted = [...Object.keys({ ...root.dependencies, ...root.peerDependencies, ...others })];
  for (const where of lockClosure(ours.packages, wanted))
    packages[where] = { ...ours.packages[where], dev: true };
  const lock = {
    name: manifest.name,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: manifest.name, devDependencies: manifest.devDependencies }, ...packages },
  };
  await writeFile(path.join(project, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

/** A package.json naming the tarball and our peers at this repository's versions, and its lock. */
async function writeOfflineProject(project: string, tarball: string): Promise<void> {
  const ours = JSON.parse(await readFile(path.join(packageDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry & { peerDependencies?: Record<string, string> }>;
  };
  const devDependencies: Record<string, string> = { auditbench: `file:${path.relative(project, tarball)}` };
  for (const name of Object.keys(ours.packages['']?.peerDependencies ?? {}))
    devDependencies[name] = String(ours.packages[`node_modules/${name}`]?.version);
  // As docs/your-repository.md advises: none of the dependencies' install scripts is needed (npm 12 will not run them).
  const allowScripts = { esbuild: false, ssh2: false, 'cpu-features': false, protobufjs: false };
  const manifest = { name: 'dba-project', private: true, type: 'module', devDependencies, allowScripts };
  await writeFile(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeOfflineLock(project, manifest, tarball);
}

/** This run's environment, less what names this repository's configuration, reports or runs. */
export function dbaEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(VITEST|AUDITBENCH_(CONFIG|REPORT_DIR|RUNS)$)/.test(name) || name === 'NODE_ENV') delete env[name];
  }
  return {
    ...env,
    // The calling suite holds the machine's run lock; the nested run finds it held by an ancestor and measures
    // while the suite only waits (src/lock/run-lock.ts, heldByAncestor).
    AUDITBENCH_WORKLOAD: 'quick',
    ...extra,
  };
}

/** A finished command: its exit code (-1 when it was killed) and its output, stdout and stderr interleaved in `all`. */
export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  all: string;
}

export interface DbaRepo extends AsyncDisposable {
  /** The repository's directory (a git work tree on branch main). */
  dir: string;
  /** What npm printed when the package was installed. */
  installLog: string;
  /** Writes the files (paths relative to the repository) and commits them. */
  commit: (files: Record<string, string>, message: string) => Promise<void>;
  /** `npx --no-install auditbench …` in the repository, never rejecting; stdout and stderr are in `all`. */
  auditbench: (
    args: string[],
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ) => Promise<CommandResult>;
  /** Any command in the repository (git, npx tsc), never rejecting. */
  exec: (
    file: string,
    args: string[],
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ) => Promise<CommandResult>;
}

/**
 * npm's `command` in the repository from the npm cache this repository's `npm ci` filled: `--offline` for `npm ci`
 * (a lock needs only the cached tarballs); `--prefer-offline` for `npm install`, which also reads registry metadata of
 * the packages whose peer ranges it checks (vite, vitest, their optional peers), which `npm ci` never caches: on a
 * machine whose cache never saw them `--offline` failed ERESOLVE ("Found: vite@undefined"), so those come from the
 * registry once, and everything else still from the cache.
 */
async function npmOffline(dir: string, command: string[]): Promise<string> {
  const mode = command[0] === 'ci' ? '--offline' : '--prefer-offline';
  const install = await execa('npm', [...command, mode, '--no-audit', '--no-fund'], {
    cwd: dir,
    timeout: 300_000,
    all: true,
  });
  return install.all;
}

/** A fresh git repository with the packed auditbench installed as a dev dependency and the files committed. */
export async function createDbaRepo(files: Record<string, string>): Promise<DbaRepo> {
  const tarball = await packAuditbench();
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-dba-'));
  await writeOfflineProject(dir, tarball);
  const installLog = await npmOffline(dir, ['ci']);
  const repo = await initRepo(dir, installLog);
  await repo.commit(files, 'auditbench as a dev dependency, and its configuration');
  return repo;
}

/**
 * A fresh git repository holding a shipped example (examples/your-vitest/) as it is, its package.json included, and
 * the packed tarball beside it, installed as a DBA installs it (`npm install --save-dev ./auditbench-<version>.tgz`,
 * which finds the example's package.json already naming it; from the cache and the lock `writeOfflineLock` writes,
 * the registry giving only metadata the cache lacks). All of
 * it is committed, the tarball too, as the README says a repository keeps it for its CI's `npm ci`.
 */
export async function createExampleRepo(example: string): Promise<DbaRepo> {
  const tarball = await packAuditbench();
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-dba-'));
  await cp(example, dir, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const name = path.basename(tarball);
  const named = manifest.devDependencies.auditbench;
  if (named !== `file:${name}`)
    throw new Error(`${example}/package.json has auditbench ${named}; npm pack wrote ${name}`);
  await copyFile(tarball, path.join(dir, name));
  await writeOfflineLock(dir, manifest, tarball);
  const installLog = await npmOffline(dir, ['install', '--save-dev', `./${name}`]);
  const repo = await initRepo(dir, installLog);
  await repo.exec('git', ['add', '--all']);
  await repo.exec('git', ['commit', '--quiet', '-m', 'the example, as shipped, with auditbench installed']);
  return repo;
}

/** git init on main, node_modules/ and reports/ left out, and the commands run in the repository. */
async function initRepo(dir: string, installLog: string): Promise<DbaRepo> {
  const git = (...args: string[]) => execa('git', args, { cwd: dir });
  await git('init', '--quiet', '--initial-branch=main');
  await git('config', 'user.email', 'dba@example.invalid');
  await git('config', 'user.name', 'A DBA');
  await writeFile(path.join(dir, '.gitignore'), 'node_modules/\nreports/\n');
  await git('add', '--', '.gitignore', 'package.json', 'package-lock.json');
  const commit = async (more: Record<string, string>, message: string): Promise<void> => {
    for (const [file, text] of Object.entries(more)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    await git('add', '--', ...Object.keys(more));
    await git('commit', '--quiet', '-m', message);
  };
  const run = async (
    file: string,
    args: string[],
    env: Record<string, string> | undefined,
    timeoutMs: number,
  ): Promise<CommandResult> => {
    const result = await execa(file, args, {
      cwd: dir,
      reject: false,
      all: true,
      timeout: timeoutMs,
      env: dbaEnv(env),
      extendEnv: false,
    });
    return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, all: result.all };
  };
  return {
    dir,
    installLog,
    commit,
    exec: (file, args, options = {}) => run(file, args, options.env, options.timeoutMs ?? 300_000),
    auditbench: (args, options = {}) =>
      run('npx', ['--no-install', 'auditbench', ...args], options.env, options.timeoutMs ?? 1_200_000),
    [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
  };
}
