import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { checkBranchName, entryPath, readBranchHistory, recordToBranch } from './branch-store.ts';

// Real git: a bare repository stands for GitHub's, and two clones push to it as two jobs of one workflow would.
let root = '';
const git = (dir: string, ...args: string[]) => execa('git', args, { cwd: dir });

async function clone(name: string): Promise<string> {
  const dir = path.join(root, name);
  await execa('git', ['clone', '--quiet', path.join(root, 'origin.git'), dir]);
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'auditbench-branch-store-'));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', path.join(root, 'origin.git')]);
  const seed = await clone('seed');
  await git(
    seed,
    '-c',
    'user.name=A DBA',
    '-c',
    'user.email=dba@example.invalid',
    'commit',
    '--quiet',
    '--allow-empty',
    '-m',
    'start',
  );
  await git(seed, 'push', '--quiet', 'origin', 'HEAD:main');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const index = async (entries: readonly { invocationId: string }[]) => ({
  'index.json': `${JSON.stringify(entries.map((e) => e.invocationId))}\n`,
});

// Six writes each race often enough: both writers retried rejected pushes in every run seen with ten, and the test
// was the unit project's longest (35 s of its minute, 2026-12-07).
const WRITES = 6;

test('two writers racing six times each: every entry is on the branch, each in a file of its own', async () => {
  const [a, b] = await Promise.all([clone('a'), clone('b')]);
  const store = (dir: string) => ({ repoDir: dir, remote: 'origin', branch: 'auditbench-history' });
  // The work tree is never touched: an edit there stays, and HEAD stays on main.
  await writeFile(path.join(a, 'mine.txt'), 'uncommitted\n');
  const writer = async (dir: string, name: string) => {
    let retries = 0;
    for (let i = 0; i < WRITES; i++) {
      const entry = sampleEntry({
        invocationId: `${name}-${i}`,
        recordedAt: `2026-12-06T08:00:${String(i).padStart(2, '0')}.000Z`,
      });
      retries += (await recordToBranch(store(dir), [entry], index)).retries;
    }
    return retries;
  };
  const retries = await Promise.all([writer(a, 'a'), writer(b, 'b')]);
  const verify = await clone('verify');
  const { entries, warnings } = await readBranchHistory(verify, 'origin/auditbench-history');
  const expected = ['a', 'b'].flatMap((w) => Array.from({ length: WRITES }, (_, i) => `${w}-${i}`)).sort();
  expect(entries.map((e) => e.invocationId).sort()).toEqual(expected);
  expect(warnings).toEqual([]);
  // The derived index is rebuilt from the tree at each attempt, so it lists every entry too.
  const listed = JSON.parse(
    (await git(verify, 'show', 'origin/auditbench-history:index.json')).stdout,
  ) as string[];
  expect(listed.sort()).toEqual(expected);
  const log = (await git(verify, 'log', '--format=%an %P', 'origin/auditbench-history')).stdout.split('\n');
  expect(log).toHaveLength(2 * WRITES);
  // The first commit is an orphan: the history branch shares nothing with main.
  expect(log.at(-1)).toBe('auditbench ');
  expect(await readFile(path.join(a, 'mine.txt'), 'utf8')).toBe('uncommitted\n');
  expect((await git(a, 'rev-parse', '--abbrev-ref', 'HEAD')).stdout).toBe('main');
  console.log(`[branch-store] rejected pushes retried: ${retries.join(' and ')}`);
}, 120_000);

test('a ref that does not exist is an empty history; one that reads as an option is not run as one', async () => {
  const dir = await clone('empty');
  expect(await readBranchHistory(dir, 'origin/no-such-branch')).toEqual({
    entries: [],
    warnings: [],
    commit: null,
  });
  expect(await readBranchHistory(dir, '--output=/tmp/x')).toEqual({
    entries: [],
    warnings: [],
    commit: null,
  });
  expect(await checkBranchName(dir, '--force')).toBe('history branch "--force" starts with \'-\'');
  expect(await checkBranchName(dir, 'a..b')).toBe('history branch "a..b" is not a valid branch name');
  expect(await checkBranchName(dir, 'a\nb')).toBe('history branch "a\\nb" is not a valid branch name');
  expect(await checkBranchName(dir, 'auditbench-history')).toBeNull();
});

test.for([
  ['2026-12-06T08:43:35.123Z', 'f3c1-42', '2026-12/2026-12-06T08-43-35.123Z-f3c1-42.jsonl'],
  ['2026-12-06T08:43:35Z', '../../etc/passwd', '2026-12/2026-12-06T08-43-35Z-etcpasswd.jsonl'],
  ['2026-01-01T00:00:00Z', '', '2026-01/2026-01-01T00-00-00Z-invocation.jsonl'],
] as const)('entry file of %s and invocation %s is %s', ([at, id, file]) => {
  expect(entryPath(at, id)).toBe(file);
});
