import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect, test } from 'vitest';

// A short real session with the project's reporters (suites/secrets/), then every artifact it produced (output,
// junit, results, history, summary, HTML, a command-line sample taken during sysbench) is searched for the
// server's password.
test('no artifact of a real run carries the server password', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-secrets-'));
  try {
    const reportDir = path.join(dir, 'reports');
    // The session writes the password beside its report dir, outside what is searched.
    const secretFile = path.join(dir, 'secret');
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|AUDITBENCH_)/.test(k))),
      AUDITBENCH_REPORT_DIR: reportDir,
      AUDITBENCH_GIT_BRANCH: 'secrets-check',
    };
    const run = await execa('vitest', ['run', '--config', 'suites/secrets/vitest.secrets.config.ts'], {
      preferLocal: true,
      env,
      extendEnv: false,
      reject: false,
      all: true,
      timeout: 180_000,
    });
    const secret = (await readFile(secretFile, 'utf8')).trim();
    expect(secret, run.all).toMatch(/^Aa1-[\w-]{24}$/);
    // The deliberate failure is the only one: the session itself worked.
    expect(run.all).toMatch(/tests: \d+ passed, 1 failed/);
    expect(run.all).toMatch(/no_such_table/);

    const files = (await readdir(reportDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
    const names = files.map((file) => path.relative(reportDir, file));
    for (const wanted of [
      'junit.xml',
      'results.json',
      'history.jsonl',
      'summary.md',
      'index.html',
      'ps-during-run.txt',
    ]) {
      expect(names).toContain(wanted);
    }
    expect(await readFile(path.join(reportDir, 'junit.xml'), 'utf8')).toMatch(/no_such_table/);
    const artifacts: [string, string][] = [
      ['output', run.all ?? ''],
      ...(await Promise.all(
        files.map(
          async (file): Promise<[string, string]> => [path.relative(dir, file), await readFile(file, 'utf8')],
        ),
      )),
    ];
    for (const [what, text] of artifacts) {
      expect(text.includes(secret), `${what} carries the password`).toBe(false);
    }
    console.log(`searched the output and ${names.length} files for the password: ${names.join(', ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 240_000);
