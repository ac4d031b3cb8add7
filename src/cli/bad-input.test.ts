import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
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
    const run = await execa(
      'npx',
      ['vitest', 'run', '--project', 'suites', 'suites/server-target.suite.ts'],
      {
        reject: false,
        env: { AUDITBENCH_REPORT_DIR: reportDir, AUDITBENCH_WORKLOAD: 'fast' },
        timeout: 60_000,
      },
    );
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

// The issue-39 command lines through the real launcher, as a DBA types them: one line in the common format, exit 2,
// and nothing installed first (no "auditbench setup:" line). Should one get past its check, the settings below stop
// it in the preflight before any server: no Docker, no counted channel, a server binary that does not exist.
test('bad command lines through ./auditbench: one line, exit 2, before setup', async () => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'auditbench-bad-args-'));
  const launcher = path.resolve('auditbench');
  try {
    const lines = [
      ['help', 'nonsense'],
      ['gate', 'main'],
      ['bench', '--bogus'],
      ['test', '--bogus'],
      ['list', '--bogus'],
      ['matrix', '--bogus'],
    ];
    const runs = await Promise.all(
      lines.map((argv) =>
        execa(launcher, argv, {
          cwd: scratch,
          reject: false,
          timeout: 60_000,
          env: {
            AUDITBENCH_DOCKER: '0',
            AUDITBENCH_COUNTED: 'off',
            AUDITBENCH_MYSQLD: '/nonexistent/mariadbd',
            AUDITBENCH_REPORT_DIR: path.join(scratch, 'reports'),
          },
        }),
      ),
    );
    for (const [i, run] of runs.entries()) {
      const command = lines[i]?.[0] === 'help' ? '' : `${lines[i]?.[0]} `;
      expect({ argv: lines[i], exitCode: run.exitCode, stdout: run.stdout }).toEqual({
        argv: lines[i],
        exitCode: 2,
        stdout: '',
      });
      expect(run.stderr).toMatch(new RegExp(`^auditbench: [^\\n]+; see auditbench ${command}--help$`));
    }
    expect(await readdir(scratch)).toEqual([]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 60_000);

// `list` refuses what `bench` refuses of the configuration, by the same function (checkConfiguration): a buffer pool
// larger than this host's memory gets bench's line and exit 2, through the real launcher. It took 28 s measured while
// other work loaded the 2 CPUs (load average about 35): the launcher's start, one `mariadbd --help`, one preflight.
test('list refuses a buffer pool larger than this host with the line bench prints, and exit 2', async () => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'auditbench-list-pool-'));
  try {
    const config = path.join(scratch, 'auditbench.config.ts');
    await writeFile(
      config,
      "export default { runs: [{ plugin: 'server_audit', startupOptions: { innodb_buffer_pool_size: '64T' } }] };\n",
    );
    // The configuration named as bench's preflight gets it: under `./auditbench test` the environment already names one.
    const list = await execa(path.resolve('auditbench'), ['list'], {
      cwd: scratch,
      env: { AUDITBENCH_CONFIG: config },
      reject: false,
      timeout: 60_000,
    });
    const bench = await preflight(
      { PATH: process.env.PATH, AUDITBENCH_CONFIG: config },
      { servers: true },
    ).then(
      () => new Error('accepted'),
      (e: Error) => e,
    );
    // What the Vitest plugin prints for a preflight refusal: `auditbench: <line>`, exit 2 (src/vitest/plugin.ts).
    const benchLine = `auditbench: ${bench.message}`;
    // MemAvailable moves between the two reads: its figure is the one part compared loosely.
    const figure = (line: string) => line.replace(/MemAvailable \(\d+\.\d GiB\)/, 'MemAvailable (N GiB)');
    expect({ exitCode: list.exitCode, stdout: list.stdout }).toEqual({ exitCode: 2, stdout: '' });
    expect(figure(list.stderr)).toBe(figure(benchLine));
    expect(list.stderr).toMatch(
      /^auditbench: run server_audit: innodb_buffer_pool_size=64T \(65536\.0 GiB\) is more than this host's MemAvailable \(\d+\.\d GiB\): .* set AUDITBENCH_LARGE_POOL=1 on a host with nothing else to protect$/,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 180_000);
