// npm run gate [-- --list] [-- <vitest args>]: run the plugin suites a change needs, against AUDITBENCH_BASE_REF.
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { loadConfig } from '../src/config/env.ts';
import {
  type RunFingerprint,
  relativeImports,
  type Selection,
  selectRuns,
  selectSuites,
} from '../src/gate/selection.ts';

// The configuration's runs are selected by what they measure (scripts/run-fingerprints.ts), not by imports.
const RUNS_SUITE = 'suites/runs.test.ts';

async function git(args: string[]): Promise<string> {
  const result = await execa('git', args, { reject: false });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** The configured base, or main when the default origin/main is missing (a clone without that remote branch). */
async function resolveBase(baseRef: string): Promise<{ ref: string; mergeBase: string }> {
  const candidates = baseRef === 'origin/main' ? [baseRef, 'main'] : [baseRef];
  for (const ref of candidates) {
    const found = await execa('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      reject: false,
    });
    if (found.exitCode === 0) return { ref, mergeBase: await git(['merge-base', ref, 'HEAD']) };
  }
  throw new Error(
    `AUDITBENCH_BASE_REF '${baseRef}' is not a commit in this clone${candidates.length > 1 ? ' (nor is main)' : ''}: fetch it (git fetch origin main) or set AUDITBENCH_BASE_REF to a branch you have`,
  );
}

/** Files changed since the merge base: commits, uncommitted edits and new untracked files alike. */
async function changedFiles(mergeBase: string): Promise<string[]> {
  const tracked = lines(await git(['diff', '--name-only', '--no-renames', mergeBase]));
  const untracked = lines(await git(['ls-files', '--others', '--exclude-standard']));
  return [...new Set([...tracked, ...untracked])];
}

/** Suite files of the suites project, and the relative imports of every file they reach. */
async function suiteGraph(): Promise<{ suites: string[]; importsOf: Record<string, string[]> }> {
  const suites = (await readdir('suites', { recursive: true }))
    .map((file) => `suites/${file.split('\\').join('/')}`)
    .filter(
      (file) => file.endsWith('.test.ts') && !file.startsWith('suites/precision/') && file !== RUNS_SUITE,
    )
    .sort();
  const importsOf: Record<string, string[]> = {};
  const queue = [...suites];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (file in importsOf) continue;
    const source = await readFile(file, 'utf8').catch(() => '');
    const imports = relativeImports(file, source);
    importsOf[file] = imports;
    queue.push(...imports);
  }
  return { suites, importsOf };
}

function describeSelection(selection: Selection): string[] {
  if (selection.kind === 'none')
    return ['no suite besides the configuration runs: no suite or harness file changed'];
  if (selection.kind === 'all') {
    const [first, ...more] = selection.because;
    return [`every suite: harness changed (${first}${more.length > 0 ? ` and ${more.length} more` : ''})`];
  }
  return selection.suites.map(({ suite, because }) => `${suite}: ${because.join(', ')} changed`);
}

type Fingerprints = Record<string, RunFingerprint> | null;

async function fingerprints(cwd: string, configPath: string): Promise<Fingerprints> {
  const tsx = path.resolve('node_modules/.bin/tsx');
  const script = path.resolve('scripts/run-fingerprints.ts');
  const result = await execa(tsx, [script], {
    cwd,
    reject: false,
    timeout: 120_000,
    env: { AUDITBENCH_CONFIG: configPath },
  });
  if (result.exitCode !== 0) {
    throw new Error(
      `reading the runs of ${configPath} in ${cwd} failed: ${result.stderr.trim().split('\n')[0]}`,
    );
  }
  return (JSON.parse(result.stdout) as { runs: Fingerprints }).runs;
}

/** The runs as the base declares them: its configuration, profiles and loader, checked out beside this tree. */
async function baseFingerprints(mergeBase: string, configPath: string): Promise<Fingerprints> {
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-gate-base-'));
  try {
    await git(['worktree', 'add', '--detach', '--quiet', dir, mergeBase]);
    await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'));
    return await fingerprints(dir, configPath);
  } finally {
    await execa('git', ['worktree', 'remove', '--force', dir], { reject: false });
    await rm(dir, { recursive: true, force: true });
  }
}

type RunSelection =
  | { kind: 'all'; because: string }
  | { kind: 'some'; runs: { run: string; because: string }[] };

async function runSelection(mergeBase: string, configPath: string, harness: boolean): Promise<RunSelection> {
  if (harness) return { kind: 'all', because: 'harness changed' };
  const relative = path.relative(process.cwd(), path.resolve(configPath));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return {
      kind: 'all',
      because: `${configPath} is outside this repository, so its base version is unknown`,
    };
  }
  const head = (await fingerprints(process.cwd(), relative)) ?? {};
  return { kind: 'some', runs: selectRuns(head, await baseFingerprints(mergeBase, relative)) };
}

async function main(args: string[]): Promise<number> {
  const listOnly = args.includes('--list');
  const config = loadConfig();
  const base = await resolveBase(config.baseRef);
  const changed = await changedFiles(base.mergeBase);
  const selection = selectSuites({ changed, ...(await suiteGraph()) });
  const runs = await runSelection(base.mergeBase, config.configPath, selection.kind === 'all');
  process.stdout.write(
    `auditbench gate: ${changed.length} file(s) changed since ${base.ref} (${base.mergeBase.slice(0, 7)})\n`,
  );
  for (const line of describeSelection(selection)) process.stdout.write(`  ${line}\n`);
  if (runs.kind === 'all') process.stdout.write(`  every run of ${config.configPath}: ${runs.because}\n`);
  else for (const { run, because } of runs.runs) process.stdout.write(`  run ${run}: ${because}\n`);
  const someRuns = runs.kind === 'all' || runs.runs.length > 0;
  if ((selection.kind === 'none' && !someRuns) || listOnly) return 0;
  const files =
    selection.kind === 'all'
      ? []
      : [
          ...(selection.kind === 'some' ? selection.suites.map((s) => s.suite) : []),
          ...(someRuns ? [RUNS_SUITE] : []),
        ];
  const env =
    runs.kind === 'some' && someRuns ? { AUDITBENCH_RUNS: runs.runs.map((r) => r.run).join(',') } : {};
  const vitestArgs = ['run', '--project', 'suites', ...files, ...args.filter((a) => a !== '--list')];
  const run = await execa('vitest', vitestArgs, { preferLocal: true, stdio: 'inherit', reject: false, env });
  return run.exitCode ?? 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`auditbench gate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
