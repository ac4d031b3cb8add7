import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, test } from 'vitest';

// The reusable action (action.yml) and this repository's workflow, checked by @action-validator/cli (the JSON
// schemas of GitHub's action and workflow files, run from WebAssembly shipped in the npm package).
const validate = (file: string) =>
  execa('action-validator', [file], { preferLocal: true, reject: false, all: true });

const scratch = await mkdtemp(path.join(tmpdir(), 'auditbench-action-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

test.for(['action.yml', '.github/workflows/audit-gate.yml'])('%s passes the linter', async (file) => {
  const result = await validate(file);
  expect(result.exitCode, result.all).toBe(0);
});

test('the linter catches a broken action (no runs), so passing means something', async () => {
  const broken = path.join(scratch, 'action.yml');
  await writeFile(broken, 'name: broken\ndescription: no runs\n');
  expect((await validate(broken)).exitCode).not.toBe(0);
});

test('the action takes the four inputs the gate needs, and the workflow calls it', async () => {
  const action = await readFile('action.yml', 'utf8');
  for (const input of ['config', 'workload', 'max-regression-pp', 'base-ref']) {
    expect(action).toMatch(new RegExp(`^  ${input}:$`, 'm'));
  }
  expect(action).toContain('npx --no-install auditbench gate');
  expect(action).toContain('actions/cache/restore@');
  expect(action).toContain('actions/cache/save@');
  expect(action).toContain('actions/upload-artifact@');
  const workflow = await readFile('.github/workflows/audit-gate.yml', 'utf8');
  expect(workflow).toMatch(/^ {6}- uses: \.\/$/m);
});
