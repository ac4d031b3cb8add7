import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { culpritLog } from './culprit-log.ts';

let dir = '';
const commits: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'auditbench-culprit-'));
  const git = (...args: string[]) =>
    execa('git', ['-c', 'user.name=A DBA', '-c', 'user.email=d@example.invalid', ...args], { cwd: dir });
  await git('init', '--quiet');
  for (const [file, message] of [
    ['auditbench.config.ts', 'the configuration'],
    ['README.md', 'a note'],
    ['ops.cnf', 'Audit queries too'],
  ]) {
    await writeFile(path.join(dir, file as string), `${message}\n`);
    await git('add', '--', file as string);
    await git('commit', '--quiet', '-m', message as string);
    commits.push((await git('rev-parse', 'HEAD')).stdout.trim());
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('the commits between last good and first bad that touched what the runs read, and only those', async () => {
  const files = [path.join(dir, 'auditbench.config.ts'), path.join(dir, 'ops.cnf'), '/etc/passwd'];
  const log = await culpritLog(commits[0] as string, commits[2] as string, files);
  expect(log).toEqual({
    lines: [expect.stringMatching(/^[0-9a-f]{7,} Audit queries too$/)],
    files: ['auditbench.config.ts', 'ops.cnf'],
  });
});

test('a commit from a history line that is not hex is refused, never passed to git', async () => {
  expect(await culpritLog('--output=/tmp/x', commits[2] as string, [path.join(dir, 'ops.cnf')])).toEqual({
    reason: `not commits: '--output=/tmp/x', '${commits[2]}'`,
  });
});
