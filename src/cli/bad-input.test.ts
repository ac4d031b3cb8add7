import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, test } from 'vitest';
import { badInputs, makeFixtures } from '../../test/support/bad-inputs.ts';
import { preflight } from './preflight.ts';

const fx = await makeFixtures();
const rows = badInputs(fx);
afterAll(() => rm(fx.dir, { recursive: true, force: true }));

// Bad input is refused before anything starts: one line naming the setting, never a stack trace or a secret.
describe('bad input', () => {
  test('the table covers at least 40 bad inputs', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  test.for(rows)('$what', async ({ env, says, secret }) => {
    const error = await preflight({ PATH: process.env.PATH, ...env }, { servers: true, probeMs: 1_500 }).then(
      () => new Error('accepted'),
      (e: Error) => e,
    );
    expect(error.message).toContain(says);
    expect(error.message).not.toContain('\n');
    if (secret) expect(error.message).not.toContain(secret);
  });
});

test('a bad setting stops vitest before it creates anything: no report dir, no junit.xml', async () => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'auditbench-bad-input-run-'));
  try {
    const reportDir = path.join(scratch, 'reports');
    const run = await execa('npx', ['vitest', 'run', '--project', 'suites', 'suites/server-target.test.ts'], {
      reject: false,
      env: { AUDITBENCH_REPORT_DIR: reportDir, AUDITBENCH_WORKLOAD: 'fast' },
      timeout: 60_000,
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe(
      "auditbench: AUDITBENCH_WORKLOAD must be one of quick, smoke, standard, seed; got 'fast'",
    );
    expect(existsSync(reportDir)).toBe(false);
    expect(await readdir(scratch)).toEqual([]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 60_000);
