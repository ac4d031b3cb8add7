import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sampleCounted, sampleEntry } from '../../../test/support/sample-entry.ts';
import { formatHistoryLines } from '../../history/parse-history.ts';
import type { CliContext } from '../context.ts';
import { run } from './history.ts';

let root = '';
const counted = sampleCounted;
const fixtureText = (name: string) =>
  readFileSync(new URL(`../../../fixtures/results/${name}`, import.meta.url), 'utf8');

async function clone(name: string): Promise<string> {
  const dir = path.join(root, name);
  await execa('git', ['clone', '--quiet', path.join(root, 'origin.git'), dir]);
  return dir;
}

/** The command in `dir`, its output captured. */
async function history(dir: string, argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    userDir: dir,
    packageDir: process.cwd(),
    version: '0.0.0',
    env: { AUDITBENCH_CONFIG: path.join(dir, 'none.config.ts'), ...env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  };
  return { code: await run(argv, context), stdout, stderr };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'auditbench-history-cli-'));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', path.join(root, 'origin.git')]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

test('record puts the new entries on the branch; another clone reads them with --from and fetch', async () => {
  const ci = await clone('ci');
  await mkdir(path.join(ci, 'reports'));
  const first = sampleEntry({ invocationId: 'r1', runId: 'events', counted: counted(5) });
  const second = sampleEntry({
    invocationId: 'r2',
    runId: 'events',
    commit: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
    recordedAt: '2026-12-01T00:00:00.000Z',
    fingerprint: 'a <script>alert(1)</script> runner',
    counted: counted(9),
  });
  await writeFile(path.join(ci, 'reports', 'history.jsonl'), formatHistoryLines([first]));
  expect((await history(ci, ['record'])).stdout).toMatch(
    /recorded 1 entry as 2026-11\/.*-r1\.jsonl on origin auditbench-history/,
  );
  await writeFile(path.join(ci, 'reports', 'history.jsonl'), formatHistoryLines([first, second]));
  const again = await history(ci, ['record', '--pages-url', 'https://dba.github.io/audit/']);
  expect(again.stdout).toMatch(/recorded 1 entry as 2026-12\/.*-r2\.jsonl/);
  expect(again.stdout).toContain('the trend page: https://dba.github.io/audit/');
  expect((await history(ci, ['record'])).stdout).toContain('nothing new');

  const dba = await clone('dba');
  const shown = await history(dba, ['--from', 'origin/auditbench-history'], {
    AUDITBENCH_MAX_REGRESSION_PP: '5',
  });
  expect(shown.code).toBe(0);
  expect(shown.stdout).toMatch(/^run events \(last 2\):$/m);
  expect(shown.stdout).toMatch(
    /^ {2}✗ bbbbbbb · 2026-12-01 00:00 · main · smoke · .* · counted \+9\.00% instr .* FAILED \(counted\)$/m,
  );
  const json = JSON.parse((await history(dba, ['--from', 'origin/auditbench-history', '--json'])).stdout);
  expect(json.runs[0].entries.map((e: { invocationId: string }) => e.invocationId)).toEqual(['r1', 'r2']);

  const pr = await clone('pr');
  expect((await history(pr, ['fetch'])).stdout).toContain('2 entries from origin auditbench-history');
  expect(await readFile(path.join(pr, 'reports', 'history.jsonl'), 'utf8')).toBe(
    formatHistoryLines([first, second]),
  );
  const page = (await execa('git', ['show', 'origin/auditbench-history:index.html'], { cwd: dba })).stdout;
  expect(page).not.toContain('<script>');
  expect(page).toContain('a &lt;script&gt;alert(1)&lt;/script&gt; runner');
}, 120_000);

test("a branch written in the old names: fetch reads it in today's, and record sees nothing new in it", async () => {
  const ci = await clone('ci-old');
  await mkdir(path.join(ci, 'reports'));
  const old = fixtureText('history-names.jsonl').split('\n')[0] ?? '';
  expect(old).toContain('"configRun":"events"');
  await writeFile(path.join(ci, 'reports', 'history.jsonl'), `${old}\n`);
  const branch = ['--branch', 'old-names'];
  expect((await history(ci, ['record', ...branch])).stdout).toMatch(
    /recorded 1 entry as 2026-12\/.*-306fbec4-/,
  );
  const pr = await clone('pr-old');
  expect((await history(pr, ['fetch', ...branch])).stdout).toContain('1 entry from origin old-names');
  const fetched = await readFile(path.join(pr, 'reports', 'history.jsonl'), 'utf8');
  expect(JSON.parse(fetched)).toMatchObject({
    invocationId: '306fbec4-5a1e-4f55-9d0a-7c1b2e3f4a50',
    runId: 'events',
  });
  expect((await history(pr, ['record', ...branch])).stdout).toContain('nothing new');
}, 120_000);

test.for([
  [['--bogus'], "auditbench: unknown option '--bogus'; see auditbench history --help"],
  [
    ['--last', '0'],
    "auditbench: --last must be a whole number from 1 to 9999, got '0'; see auditbench history --help",
  ],
  [
    ['record', '--branch=-f'],
    'auditbench: history branch "-f" starts with \'-\'; see auditbench history --help',
  ],
  [
    ['record', '--branch', 'a..b'],
    'auditbench: history branch "a..b" is not a valid branch name; see auditbench history --help',
  ],
  [
    ['push'],
    "auditbench: unexpected argument 'push' (the actions are fetch, record; a branch is --from <ref>); see auditbench history --help",
  ],
  [['--branch', 'x'], 'auditbench: --branch goes with fetch or record only; see auditbench history --help'],
  [
    ['--from=--output=x'],
    'auditbench: --from "--output=x" starts with \'-\': give a ref, e.g. --from origin/auditbench-history; see auditbench history --help',
  ],
] as const)('%j is refused in one line, exit 2', async ([argv, line]) => {
  const result = await history(root, [...argv]);
  expect(result).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
});

test('--from a ref that names no commit is refused, naming it, not shown as an empty trend', async () => {
  const dba = await clone('typo');
  const result = await history(dba, ['--from', 'origin/auditbench-histroy']);
  expect(result).toEqual({
    code: 2,
    stdout: '',
    stderr: `auditbench: --from "origin/auditbench-histroy" names no commit in ${dba}: give a branch that exists, e.g. origin/auditbench-history (fetch it first: git fetch origin auditbench-history); see auditbench history --help\n`,
  });
});

test('fetch refuses a reports/history.jsonl committed as a symbolic link, and leaves its target as it was', async () => {
  const clone_ = await clone('linked');
  const target = path.join(root, 'precious.txt');
  await writeFile(target, 'a file of the DBA that a clone must not overwrite\n');
  const sha256 = async () =>
    createHash('sha256')
      .update(await readFile(target))
      .digest('hex');
  const before = await sha256();
  await mkdir(path.join(clone_, 'reports'));
  await symlink(target, path.join(clone_, 'reports', 'history.jsonl'));
  const git = (...args: string[]) => execa('git', args, { cwd: clone_ });
  await git('add', 'reports/history.jsonl');
  await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'a link');
  const link = path.join(clone_, 'reports', 'history.jsonl');
  expect(await history(clone_, ['fetch'])).toEqual({
    code: 2,
    stdout: '',
    stderr: `auditbench: ${link} is a symbolic link, and auditbench writes ${link} only where no link it did not make leads: remove the link (or set AUDITBENCH_REPORT_DIR to a folder of real directories); see auditbench history --help\n`,
  });
  expect(await sha256()).toBe(before);
}, 60_000);
