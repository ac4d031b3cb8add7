import { mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, expect, test } from 'vitest';
import { checkOutBase, defaultBranchRef, openRepo } from './repo.ts';

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
