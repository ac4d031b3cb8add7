import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CliContext } from '../context.ts';
import { ACTION_DIR, run } from './action.ts';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'auditbench-action-cli-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function action(dir: string, argv: string[] = [], version = '0.1.0') {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    userDir: dir,
    packageDir: process.cwd(),
    version,
    env: {},
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  };
  return { code: await run(argv, context), stdout, stderr };
}

test('writes the Action and its scripts at the package version, says how to use it, and replaces it only with --update', async () => {
  const repo = path.join(root, 'repo');
  await mkdir(repo);
  const first = await action(repo);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('  - uses: ./.github/actions/auditbench');
  const written = path.join(repo, ACTION_DIR);
  expect(await readFile(path.join(written, 'action.yml'), 'utf8')).toBe(await readFile('action.yml', 'utf8'));
  expect((await stat(path.join(written, 'action', 'measure.sh'))).mode & 0o111).not.toBe(0);
  expect(JSON.parse(await readFile(path.join(written, 'package.json'), 'utf8')).version).toBe('0.1.0');
  // The step scripts action.yml runs are all there.
  const steps = [
    ...(await readFile('action.yml', 'utf8')).matchAll(/action_path \}\}\/(action\/[\w-]+\.sh)/g),
  ];
  expect(steps.length).toBeGreaterThan(0);
  for (const [, script] of steps) await expect(stat(path.join(written, script ?? ''))).resolves.toBeTruthy();

  const again = await action(repo, [], '0.2.0');
  expect(again.code).toBe(2);
  expect(again.stderr).toBe(
    `auditbench: ${written} exists: run with --update to replace it with version 0.2.0; see auditbench action --help\n`,
  );
  const updated = await action(repo, ['--update'], '0.2.0');
  expect(updated.code).toBe(0);
  expect(JSON.parse(await readFile(path.join(written, 'package.json'), 'utf8')).version).toBe('0.2.0');
});

test('the written measure step refuses an installed auditbench of another version, naming the command that updates it', async () => {
  const repo = path.join(root, 'mismatch');
  await mkdir(repo);
  expect((await action(repo, [], '9.9.9')).code).toBe(0);
  // npx --no-install auditbench --version answers with the installed version: a stand-in on PATH says 0.1.0.
  const bin = path.join(root, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'npx'), '#!/bin/sh\necho 0.1.0\n', { mode: 0o755 });
  const result = await execa('bash', [path.join(repo, ACTION_DIR, 'action', 'measure.sh')], {
    cwd: repo,
    reject: false,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_ACTION_PATH: path.join(repo, ACTION_DIR),
      RUNNER_TEMP: root,
      GITHUB_EVENT_NAME: 'push',
    },
  });
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toContain(
    "the action is auditbench 9.9.9 but the repository installs 0.1.0; run 'npx auditbench action --update'",
  );
});

test('nothing is written through a symbolic link', async () => {
  const repo = path.join(root, 'linked');
  const elsewhere = path.join(root, 'elsewhere');
  await mkdir(repo);
  await mkdir(elsewhere);
  await symlink(elsewhere, path.join(repo, '.github'));
  const result = await action(repo);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${path.join(repo, '.github')} is a symbolic link`);
  await expect(stat(path.join(elsewhere, 'actions'))).rejects.toThrow();
});
