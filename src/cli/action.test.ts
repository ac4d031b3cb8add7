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
  expect(action).toContain('actions/cache/restore@');
  expect(action).toContain('actions/cache/save@');
  expect(action).toContain('actions/upload-artifact@');
  const workflow = await readFile('.github/workflows/audit-gate.yml', 'utf8');
  expect(workflow).toMatch(/^ {6}- uses: \.\/$/m);
});

test('each run: step is a script in action/, which exists and measures by the event', async () => {
  const action = await readFile('action.yml', 'utf8');
  const scripts = [...action.matchAll(/^ {6}run: \$\{\{ github\.action_path \}\}\/(\S+)$/gm)].map(
    (m) => m[1],
  );
  expect(scripts).toEqual(['action/setup.sh', 'action/measure.sh', 'action/publish-summary.sh']);
  // Every run: line of the action is one of those calls: no inline script the suite would not run.
  expect(action.match(/^ {6}run:/gm)).toHaveLength(scripts.length);
  for (const script of scripts) await readFile(script ?? '', 'utf8');
  const measure = await readFile('action/measure.sh', 'utf8');
  expect(measure).toContain('exec npx --no-install auditbench gate');
  expect(measure).toContain('exec npx --no-install auditbench bench');
  // The history's cache key names the configuration, and a pull request never saves.
  expect(action).toMatch(/key: auditbench-history-.*\$\{\{ inputs\.config \}\}-\$\{\{ github\.run_id \}\}/);
  expect(action).toContain("github.event_name != 'pull_request'");
});

test('every action in the action, the workflow and the docs’ examples is pinned to a commit with its tag, as docs/your-repository.md lists it', async () => {
  const doc = await readFile('docs/your-repository.md', 'utf8');
  for (const file of [
    'action.yml',
    '.github/workflows/audit-gate.yml',
    'README.md',
    'docs/your-repository.md',
  ]) {
    const uses = [...(await readFile(file, 'utf8')).matchAll(/^\s*(?:- )?uses: (\S+)(.*)$/gm)];
    for (const [line, ref = '', comment = ''] of uses) {
      // This repository's own action, and auditbench as a DBA names it (a placeholder).
      if (ref === './' || ref.startsWith('<owner>/')) continue;
      expect(ref, line).toMatch(/^[\w-]+\/[\w/-]+@[0-9a-f]{40}$/);
      const tag = /^ # (v\d+\.\d+\.\d+)$/.exec(comment)?.[1];
      expect(tag, line).toBeDefined();
      // The doc's table row: the action's repository (actions/cache/save is a folder of actions/cache), its tag, the
      // same commit.
      const [action = '', sha] = ref.split('@');
      const repository = action.split('/').slice(0, 2).join('/');
      expect(doc, line).toMatch(new RegExp(`\\| \`${repository}\` +\\| ${tag} +\\| \`${sha}\``));
    }
  }
});
