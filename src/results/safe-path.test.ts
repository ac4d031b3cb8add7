import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { linkOnPath, refuseLinks, reportPath, writeRoot } from './safe-path.ts';

let dir: string;
let repo: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'safe-path-'));
  repo = path.join(dir, 'repo');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(path.join(dir, 'elsewhere'));
  writeFileSync(path.join(dir, 'elsewhere', 'precious'), 'kept\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('the check starts at the repository root, a folder holding .git that is not itself a link', async () => {
  expect(await writeRoot(path.join(repo, 'reports', 'runs'))).toBe(repo);
  // A link's .git is another repository's: the walk goes past it, to the clone that holds the link.
  mkdirSync(path.join(dir, 'other', '.git'), { recursive: true });
  symlinkSync(path.join(dir, 'other'), path.join(repo, 'reports'));
  expect(await writeRoot(path.join(repo, 'reports'))).toBe(repo);
  // Outside any repository, from the named folder's parent.
  expect(await writeRoot(path.join(dir, 'elsewhere', 'reports'))).toBe(path.join(dir, 'elsewhere'));
});

test('real folders and files, or ones not made yet, pass', async () => {
  mkdirSync(path.join(repo, 'reports'));
  writeFileSync(path.join(repo, 'reports', 'history.jsonl'), '');
  expect(await linkOnPath(repo, path.join(repo, 'reports', 'history.jsonl'))).toBeNull();
  expect(await linkOnPath(repo, path.join(repo, 'reports', 'runs', 'a.json'))).toBeNull();
  expect(await reportPath(path.join(repo, 'reports'), 'summary.md')).toBe(
    path.join(repo, 'reports', 'summary.md'),
  );
});

test.for<[string, string, string]>([
  ['the file', 'reports/history.jsonl', 'reports/history.jsonl'],
  ['its folder', 'reports', 'reports/history.jsonl'],
  ['a folder between', 'reports/runs', 'reports/runs/a.json'],
])('a link as %s is refused, naming it', async ([, link, file]) => {
  mkdirSync(path.join(repo, 'reports'), { recursive: true });
  rmSync(path.join(repo, link), { recursive: true, force: true });
  symlinkSync(path.join(dir, 'elsewhere', link.endsWith('.jsonl') ? 'precious' : ''), path.join(repo, link));
  const target = path.join(repo, file);
  await expect(refuseLinks(target, path.join(repo, 'reports'))).rejects.toThrow(
    `${path.join(repo, link)} is a symbolic link, and auditbench writes ${target} only where no link it did not make leads: remove the link (or set AUDITBENCH_REPORT_DIR to a folder of real directories)`,
  );
});

test('a dangling link is a link too', async () => {
  mkdirSync(path.join(repo, 'reports'));
  symlinkSync(path.join(dir, 'nowhere'), path.join(repo, 'reports', 'junit.xml'));
  await expect(reportPath(path.join(repo, 'reports'), 'junit.xml')).rejects.toThrow(
    /junit.xml is a symbolic link/,
  );
});

test('a report folder outside any repository is checked from the folder itself down', async () => {
  symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'linked'));
  await expect(reportPath(path.join(dir, 'linked'), 'summary.md')).rejects.toThrow(
    `${path.join(dir, 'linked')} is a symbolic link`,
  );
});
