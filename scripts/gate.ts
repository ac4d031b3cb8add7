// npm run gate [-- --list] [-- <vitest args>]: run the plugin suites a change needs, against AUDITBENCH_BASE_REF.
import { readdir, readFile } from 'node:fs/promises';
import { execa } from 'execa';
import { loadConfig } from '../src/config/env.ts';
import { relativeImports, type Selection, selectSuites } from './gate-selection.ts';

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
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('suites/precision/'))
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
  if (selection.kind === 'none') return ['nothing to run: no plugin profile, suite or harness file changed'];
  if (selection.kind === 'all') {
    const [first, ...more] = selection.because;
    return [`every suite: harness changed (${first}${more.length > 0 ? ` and ${more.length} more` : ''})`];
  }
  return selection.suites.map(({ suite, because }) => `${suite}: ${because.join(', ')} changed`);
}

async function main(args: string[]): Promise<number> {
  const listOnly = args.includes('--list');
  const base = await resolveBase(loadConfig().baseRef);
  const changed = await changedFiles(base.mergeBase);
  const selection = selectSuites({ changed, ...(await suiteGraph()) });
  process.stdout.write(
    `auditbench gate: ${changed.length} file(s) changed since ${base.ref} (${base.mergeBase.slice(0, 7)})\n`,
  );
  for (const line of describeSelection(selection)) process.stdout.write(`  ${line}\n`);
  if (selection.kind === 'none' || listOnly) return 0;
  const files = selection.kind === 'all' ? [] : selection.suites.map((s) => s.suite);
  const vitestArgs = ['run', '--project', 'suites', ...files, ...args.filter((a) => a !== '--list')];
  const run = await execa('vitest', vitestArgs, { preferLocal: true, stdio: 'inherit', reject: false });
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
