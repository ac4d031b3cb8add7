// The history kept on a branch of the DBA's own repository (default `auditbench-history`): one file per invocation,
// `<yyyy-mm>/<recordedAt>-<invocationId>.jsonl`, plus files derived from all of them (an index, the trend page). Written
// with git plumbing into a temporary index, so the DBA's work tree, HEAD and index are never touched. Two writers
// never add the same path, and the derived files are rebuilt from the tree on every attempt, so a rejected push is
// fetched and the commit made again on the new tip: it cannot conflict, and no entry is lost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { HistoryEntry } from './entry.ts';
import { formatHistoryLines, type ParsedHistory, parseHistory } from './parse-history.ts';

export const DEFAULT_HISTORY_BRANCH = 'auditbench-history';
/** Runners have no git identity; the history's commits say who made them. */
const IDENTITY = { name: 'auditbench', email: 'auditbench@users.noreply.github.com' };
const ENTRY_FILE = /^\d{4}-\d{2}\/[0-9A-Za-z._-]+\.jsonl$/;

export interface BranchStore {
  /** The repository's directory (any folder inside its work tree). */
  repoDir: string;
  remote: string;
  branch: string;
  /** A token to push with (the Action's `token` input); else git's own credentials (actions/checkout persists them). */
  token?: string | null;
}

/** Files derived from every entry on the branch (index, trend page): path → content. */
export type DerivedFiles = (entries: HistoryEntry[]) => Promise<Record<string, string>>;

/** git's refusal, in a line that says which command and what git said. */
async function git(
  dir: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const result = await execa('git', args, { cwd: dir, reject: false, ...options });
  if (result.exitCode !== 0)
    throw new Error(`git ${args[0]} failed in ${dir}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** A branch name as git accepts it (`git check-ref-format --branch`); anything else is refused before use. */
export async function checkBranchName(dir: string, branch: string): Promise<string | null> {
  // Shown as JSON, so a name with a line break or a control character stays one line of the refusal.
  const shown = JSON.stringify(branch);
  if (branch.startsWith('-')) return `history branch ${shown} starts with '-'`;
  const result = await execa('git', ['check-ref-format', '--branch', branch], { cwd: dir, reject: false });
  return result.exitCode === 0 ? null : `history branch ${shown} is not a valid branch name`;
}

/**
 * `2026-12/2026-12-06T08-43-35.123Z-<invocationId>.jsonl`: colons out (Windows clones), an invocation id of safe
 * characters only.
 */
export function entryPath(recordedAt: string, invocationId: string): string {
  const at = recordedAt.replace(/[^0-9A-Za-z.-]/g, '-');
  const id = invocationId.replace(/[^0-9A-Za-z-]/g, '').slice(0, 64) || 'invocation';
  return `${at.slice(0, 7)}/${at}-${id}.jsonl`;
}

/** The commit a ref names, or null when there is none (a branch not created yet). */
async function resolveCommit(dir: string, ref: string): Promise<string | null> {
  const result = await execa(
    'git',
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    {
      cwd: dir,
      reject: false,
    },
  );
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** Every entry stored under `commit`, oldest file first; a bad line is a warning naming its file, as in history.jsonl. */
async function entriesAt(dir: string, commit: string): Promise<ParsedHistory> {
  const listing = await git(dir, ['ls-tree', '-r', '-z', commit]);
  const blobs = listing
    .split('\0')
    .map((line) => /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && ENTRY_FILE.test(m[2] ?? ''))
    .map((m) => ({ sha: m[1] as string, file: m[2] as string }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const entries: HistoryEntry[] = [];
  const warnings: string[] = [];
  for (const { sha, file } of blobs) {
    const parsed = parseHistory(await git(dir, ['cat-file', 'blob', sha]).then((t) => `${t}\n`), file);
    entries.push(...parsed.entries);
    warnings.push(...parsed.warnings);
  }
  return { entries, warnings };
}

/**
 * The history on `ref` (a branch, `origin/auditbench-history`, a commit). A ref that does not exist is an empty
 * history; `ref` is checked by git as a revision, never passed where it could read as an option.
 */
export async function readBranchHistory(
  dir: string,
  ref: string,
): Promise<ParsedHistory & { commit: string | null }> {
  const commit = await resolveCommit(dir, ref);
  if (commit === null) return { entries: [], warnings: [], commit: null };
  return { ...(await entriesAt(dir, commit)), commit };
}

/** git's environment for pushing with a token: config in the environment, so the token is in no argv. */
function tokenEnv(token: string | null | undefined): Record<string, string> {
  if (!token) return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraheader',
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}

const trackingRef = (branch: string) => `refs/auditbench/history-tip/${branch}`;

/** Fetches the remote branch into a private ref; null when the remote has no such branch yet. */
export async function fetchTip(store: BranchStore): Promise<string | null> {
  const ref = trackingRef(store.branch);
  const result = await execa(
    'git',
    ['fetch', '--quiet', '--no-tags', store.remote, `+refs/heads/${store.branch}:${ref}`],
    { cwd: store.repoDir, reject: false, env: tokenEnv(store.token) },
  );
  if (result.exitCode === 0) return resolveCommit(store.repoDir, ref);
  if (/couldn't find remote ref/i.test(result.stderr)) return null;
  throw new Error(`git fetch ${store.remote} ${store.branch} failed: ${result.stderr.trim()}`);
}

/** A commit of `tip`'s tree plus `files` (path → content), built in a temporary index; the work tree is not read. */
async function commitFiles(
  dir: string,
  tip: string | null,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'auditbench-history-index-'));
  const env = {
    GIT_INDEX_FILE: path.join(scratch, 'index'),
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
  };
  try {
    await git(dir, tip ? ['read-tree', tip] : ['read-tree', '--empty'], { env });
    for (const [file, content] of Object.entries(files)) {
      const sha = (await git(dir, ['hash-object', '-w', '--stdin'], { input: content })).trim();
      await git(dir, ['update-index', '--add', '--cacheinfo', `100644,${sha},${file}`], { env });
    }
    const tree = (await git(dir, ['write-tree'], { env })).trim();
    return (
      await git(dir, ['commit-tree', tree, ...(tip ? ['-p', tip] : []), '-F', '-'], { env, input: message })
    ).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export interface Recorded {
  commit: string;
  file: string;
  /** Pushes that were rejected (another writer came first) before this one went through. */
  retries: number;
}

/**
 * Commits `entries` as one new file on the history branch and pushes it: the branch is created empty (orphan) on the
 * first push; a push rejected because another writer came first is fetched and made again on the new tip.
 */
export async function recordToBranch(
  store: BranchStore,
  entries: readonly HistoryEntry[],
  derived: DerivedFiles,
  { attempts = 12, backoffMs = 250 } = {},
): Promise<Recorded> {
  const first = entries[0];
  if (!first) throw new Error('recordToBranch: no entries to record');
  const file = entryPath(first.recordedAt, first.invocationId);
  const message = `auditbench: ${entries.length} result(s) of ${first.commit.slice(0, 12)} (${first.branch})\n\n${file}\n`;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const tip = await fetchTip(store);
    const before = tip ? (await entriesAt(store.repoDir, tip)).entries : [];
    const files = { [file]: formatHistoryLines(entries), ...(await derived([...before, ...entries])) };
    const commit = await commitFiles(store.repoDir, tip, files, message);
    const pushed = await execa(
      'git',
      ['push', '--quiet', '--porcelain', store.remote, `${commit}:refs/heads/${store.branch}`],
      { cwd: store.repoDir, reject: false, env: tokenEnv(store.token) },
    );
    if (pushed.exitCode === 0) return { commit, file, retries: attempt };
    const said = `${pushed.stdout}\n${pushed.stderr}`;
    // Another writer's commit landed first: not a fast-forward. Anything else (no permission, a branch rule) is final.
    if (!/\[rejected\]|non-fast-forward|fetch first|failed to update ref|cannot lock ref/i.test(said))
      throw new Error(
        `git push to ${store.remote} ${store.branch} failed: ${pushed.stderr.trim()}: give the job contents: write (and let branch rules allow it), or pass the token input`,
      );
    // A random wait, growing: two writers in step would otherwise keep meeting at the same tip.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * backoffMs * (attempt + 1)));
  }
  throw new Error(
    `git push to ${store.remote} ${store.branch} was rejected ${attempts} times: too many writers at once; run again`,
  );
}
