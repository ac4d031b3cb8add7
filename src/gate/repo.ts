// The git side of the gate, always in the repository the command runs in (the DBA's), never this package's.
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface Repo {
  /** The work tree's top directory. */
  root: string;
}

/** A failed git command in a line: git's own stderr, or its exit code when git said nothing (merge-base does). */
const gitFailure = (cwd: string, args: string[], result: { exitCode?: number; stderr: string }): Error => {
  const said = result.stderr.trim().split('\n').join(' ');
  const why = said || `exit code ${result.exitCode}, and git said nothing`;
  return new Error(`git ${args.join(' ')} in ${cwd} failed: ${why}`);
};

async function git(cwd: string, args: string[]): Promise<string> {
  const result = await execa('git', args, { cwd, reject: false });
  if (result.exitCode !== 0) throw gitFailure(cwd, args, result);
  return result.stdout.trim();
}

const succeeds = async (cwd: string, args: string[]): Promise<boolean> =>
  (await execa('git', args, { cwd, reject: false })).exitCode === 0;

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

export async function openRepo(cwd: string): Promise<Repo> {
  if (!(await succeeds(cwd, ['rev-parse', '--show-toplevel']))) {
    throw new Error(
      `auditbench gate diffs a git repository, and ${cwd} is not in one: run it where your auditbench.config.ts is committed`,
    );
  }
  return { root: await git(cwd, ['rev-parse', '--show-toplevel']) };
}

const isCommit = (repo: Repo, ref: string): Promise<boolean> =>
  succeeds(repo.root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);

/** origin/HEAD's branch when the clone knows it (`git remote set-head origin --auto`), else main, else master. */
async function defaultBase(repo: Repo): Promise<string | null> {
  const head = await execa('git', ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], {
    cwd: repo.root,
    reject: false,
  });
  const candidates = [
    ...(head.exitCode === 0 ? [head.stdout.trim().replace(/^refs\/remotes\//, '')] : []),
    'origin/main',
    'main',
    'origin/master',
    'master',
  ];
  for (const ref of candidates) if (await isCommit(repo, ref)) return ref;
  return null;
}

/**
 * The repository's default branch as a ref (origin/HEAD's branch, else main, else master), or null when `cwd` is
 * not in a git repository or has none of them: the base `bench` compares history with when AUDITBENCH_BASE_REF is
 * unset, by the same rule as the gate's.
 */
export async function defaultBranchRef(cwd: string): Promise<string | null> {
  const top = await execa('git', ['rev-parse', '--show-toplevel'], { cwd, reject: false });
  return top.exitCode === 0 ? defaultBase({ root: top.stdout.trim() }) : null;
}

/** The base the branch is diffed against: `given` (--base or AUDITBENCH_BASE_REF), else the default branch. */
export async function resolveBase(
  repo: Repo,
  given: { ref: string; from: string } | null,
): Promise<{ ref: string; mergeBase: string }> {
  const ref = given ? given.ref : await defaultBase(repo);
  if (given && !(await isCommit(repo, given.ref))) {
    throw new Error(
      `${given.from} '${given.ref}' is not a commit in ${repo.root}: fetch it (git fetch origin ${given.ref.replace(/^origin\//, '')}) or pass --base <a branch you have>`,
    );
  }
  if (ref === null) {
    throw new Error(
      `auditbench gate: ${repo.root} has no origin/HEAD, main or master to diff against: pass --base <branch>`,
    );
  }
  // A shallow clone (actions/checkout's default depth of 1) has no merge base to find: say so before git fails.
  if ((await git(repo.root, ['rev-parse', '--is-shallow-repository'])) === 'true') {
    throw new Error(
      `auditbench gate: ${repo.root} is a shallow clone, so its merge base with ${ref} is not there: check it out with its history (actions/checkout with fetch-depth: 0, or git fetch --unshallow)`,
    );
  }
  const args = ['merge-base', ref, 'HEAD'];
  const found = await execa('git', args, { cwd: repo.root, reject: false });
  if (found.exitCode === 0) return { ref, mergeBase: found.stdout.trim() };
  if (found.exitCode === 1 && found.stderr.trim() === '') {
    throw new Error(
      `auditbench gate: ${ref} and HEAD share no commit in ${repo.root}, so there is no merge base to diff from: pass --base <a branch this one grew from>`,
    );
  }
  throw gitFailure(repo.root, args, found);
}

/** Files changed since the merge base, repo-relative: commits, uncommitted edits and new untracked files alike. */
export async function changedFiles(repo: Repo, mergeBase: string): Promise<string[]> {
  const tracked = lines(await git(repo.root, ['diff', '--name-only', '--no-renames', mergeBase]));
  const untracked = lines(await git(repo.root, ['ls-files', '--others', '--exclude-standard']));
  return [...new Set([...tracked, ...untracked])];
}

/** A file's text at a commit, or null when the commit does not have it. */
export async function fileAt(repo: Repo, commit: string, file: string): Promise<string | null> {
  const result = await execa('git', ['show', `${commit}:${file}`], { cwd: repo.root, reject: false });
  return result.exitCode === 0 ? result.stdout : null;
}

/** A checkout of the base beside the work tree, with the work tree's node_modules; removed on dispose. */
export interface BaseCheckout extends AsyncDisposable {
  dir: string;
}

const exists = async (file: string): Promise<boolean> => (await stat(file).catch(() => null)) !== null;

export async function checkOutBase(repo: Repo, mergeBase: string): Promise<BaseCheckout> {
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-gate-base-'));
  const remove = async () => {
    await execa('git', ['worktree', 'remove', '--force', dir], { cwd: repo.root, reject: false });
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await git(repo.root, ['worktree', 'add', '--detach', '--quiet', dir, mergeBase]);
    // The base's configuration imports 'auditbench' (and its own helpers) like the head's does. A repository that
    // commits its node_modules already has the base's own in the checkout.
    const modules = path.join(repo.root, 'node_modules');
    const checkedOut = path.join(dir, 'node_modules');
    if ((await exists(modules)) && !(await exists(checkedOut))) await symlink(modules, checkedOut);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, [Symbol.asyncDispose]: remove };
}
