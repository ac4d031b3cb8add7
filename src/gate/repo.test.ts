import { mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, expect, test } from 'vitest';
import { checkOutBase, defaultBranchRef, openRepo, resolveBase } from './repo.ts';

// A real git repository in the temp directory: the base checkout is git's own worktree, nothing is faked.
const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function repoWith(files: Record<string, string>, branch = 'main'): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'auditbench-repo-test-'));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  const git = (...args: string[]) => execa('git', args, { cwd: root });
  await git('init', '-q', '-b', branch);
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'base');
  return root;
}

test("the base checkout gets the work tree's node_modules as a link", async () => {
  const root = await repoWith({ 'auditbench.config.ts': '', '.gitignore': 'node_modules\n' });
  await mkdir(path.join(root, 'node_modules', 'auditbench'), { recursive: true });
  const repo = await openRepo(root);
  await using base = await checkOutBase(repo, 'HEAD');
  expect(await readlink(path.join(base.dir, 'node_modules'))).toBe(path.join(repo.root, 'node_modules'));
});

test('a repository that commits its node_modules keeps the checked-out ones, not a link over them', async () => {
  const root = await repoWith({ 'auditbench.config.ts': '', 'node_modules/auditbench/package.json': '{}' });
  const repo = await openRepo(root);
  await using base = await checkOutBase(repo, 'HEAD');
  await expect(readlink(path.join(base.dir, 'node_modules'))).rejects.toThrow(/EINVAL/);
});

test('the default branch: main, else master; none outside a repository', async () => {
  expect(await defaultBranchRef(await repoWith({ a: '' }))).toBe('main');
  expect(await defaultBranchRef(await repoWith({ a: '' }, 'master'))).toBe('master');
  const plain = await mkdtemp(path.join(tmpdir(), 'auditbench-no-repo-'));
  made.push(plain);
  expect(await defaultBranchRef(plain)).toBeNull();
});

/** A second commit on main, then a clone of `root` one commit deep (file://, so git makes it shallow). */
async function shallowCloneOf(root: string): Promise<string> {
  await writeFile(path.join(root, 'b'), 'b');
  await execa('git', ['add', '-A'], { cwd: root });
  await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'b'], {
    cwd: root,
  });
  const clone = await mkdtemp(path.join(tmpdir(), 'auditbench-shallow-'));
  made.push(clone);
  await execa('git', ['clone', '-q', '--depth', '1', `file://${root}`, clone]);
  return clone;
}

test('a shallow clone is refused up front, naming fetch-depth: 0', async () => {
  const clone = await shallowCloneOf(await repoWith({ a: '' }));
  await expect(resolveBase(await openRepo(clone), null)).rejects.toThrow(
    /is a shallow clone, so its merge base with origin\/main is not there: check it out with its history \(actions\/checkout with fetch-depth: 0, or git fetch --unshallow\)$/,
  );
});

test("a failing git command says git's stderr; a base with no commit in common says so", async () => {
  const root = await repoWith({ a: '' });
  const repo = await openRepo(root);
  await expect(checkOutBase(repo, 'f'.repeat(40))).rejects.toThrow(
    /^git worktree add --detach --quiet .* failed: fatal: invalid reference: f{40}$/,
  );
  const git = (...args: string[]) => execa('git', args, { cwd: root });
  await git('checkout', '-q', '--orphan', 'unrelated');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'unrelated');
  await expect(resolveBase(repo, { ref: 'main', from: '--base' })).rejects.toThrow(
    'auditbench gate: main and HEAD share no commit',
  );
});
