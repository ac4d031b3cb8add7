import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
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
  for (const input of ['history-branch', 'token', 'pages-url']) {
    expect(action).toMatch(new RegExp(`^  ${input}:$`, 'm'));
  }
  // The history is a branch of the repository, never the Actions cache (evicted after 7 days unused).
  expect(action).not.toContain('actions/cache');
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
  expect(measure).toContain('npx --no-install auditbench gate');
  expect(measure).toContain('npx --no-install auditbench bench');
  expect(measure).toContain('npx --no-install auditbench history fetch');
  expect(measure).toContain('npx --no-install auditbench history record');
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
      // This repository's own action, and the copy `auditbench action` writes into a DBA's repository.
      if (ref === './' || ref === './.github/actions/auditbench') continue;
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

// The measuring and publishing steps run with bash in a scratch repository, as GitHub runs them, with `npx` a stub on
// PATH that writes what the test says (STUB_WRITES: a summary's name, or 'link' for a symlink) and exits STUB_EXIT.
const STUB = `#!/usr/bin/env bash
echo "npx $*" >>"$STUB_CALLS"
# The history's fetch and record succeed; the measuring command does what the test says.
if [ "$3" = history ]; then exit 0; fi
mkdir -p reports
for name in $STUB_WRITES; do
  if [ "$name" = link ]; then ln -sf "$SECRET" reports/summary.md; else echo "## $name of this job" >"reports/$name"; fi
done
exit "\${STUB_EXIT:-0}"
`;

async function actionJob(event: string, stub: { writes?: string; exit?: number } = {}) {
  const job = await mkdtemp(path.join(scratch, 'job-'));
  const work = path.join(job, 'work');
  await mkdir(path.join(work, 'reports'), { recursive: true });
  await mkdir(path.join(job, 'bin'));
  await mkdir(path.join(job, 'runner-temp'));
  await writeFile(path.join(job, 'bin', 'npx'), STUB);
  await chmod(path.join(job, 'bin', 'npx'), 0o755);
  const secret = path.join(job, 'secret.txt');
  await writeFile(secret, 'a file of the runner');
  const env = {
    PATH: `${path.join(job, 'bin')}:${process.env.PATH}`,
    GITHUB_EVENT_NAME: event,
    GITHUB_STEP_SUMMARY: path.join(job, 'step-summary.md'),
    RUNNER_TEMP: path.join(job, 'runner-temp'),
    STUB_CALLS: path.join(job, 'calls'),
    STUB_WRITES: stub.writes ?? '',
    STUB_EXIT: String(stub.exit ?? 0),
    SECRET: secret,
  };
  const step = (script: string) =>
    execa('bash', [path.resolve('action', script)], {
      cwd: work,
      env,
      extendEnv: false,
      reject: false,
      all: true,
    });
  const read = (file: string) => readFile(file, 'utf8').catch(() => '');
  return {
    work,
    secret,
    step,
    summary: () => read(env.GITHUB_STEP_SUMMARY),
    calls: () => read(env.STUB_CALLS),
  };
}

test('setup failed before measuring: a committed gate.md, or a symlink to a runner file, is not published', async () => {
  const job = await actionJob('pull_request');
  await writeFile(path.join(job.work, 'reports', 'gate.md'), '## auditbench gate: passed\n');
  await symlink(job.secret, path.join(job.work, 'reports', 'summary.md'));
  const published = await job.step('publish-summary.sh');
  expect(published.exitCode, published.all).toBe(0);
  expect(await job.summary()).toBe(
    "auditbench: no summary was written in this job; the measuring step's log says why\n",
  );
});

test('the measuring step publishes what its command wrote, not what was committed, and keeps its exit code', async () => {
  const job = await actionJob('pull_request', { writes: 'gate.md', exit: 1 });
  await writeFile(path.join(job.work, 'reports', 'summary.md'), '## committed by the branch\n');
  const measured = await job.step('measure.sh');
  expect(measured.exitCode, measured.all).toBe(1);
  expect(await job.calls()).toBe(
    'npx --no-install auditbench history fetch --branch auditbench-history\nnpx --no-install auditbench gate\n',
  );
  await job.step('publish-summary.sh');
  expect(await job.summary()).toBe('## gate.md of this job\n');
});

test('a summary the command left as a symlink is not published', async () => {
  const job = await actionJob('push', { writes: 'link' });
  expect((await job.step('measure.sh')).exitCode).toBe(0);
  expect(await job.calls()).toBe(
    [
      'npx --no-install auditbench history fetch --branch auditbench-history',
      'npx --no-install auditbench bench',
      'npx --no-install auditbench history record --branch auditbench-history',
      '',
    ].join('\n'),
  );
  await job.step('publish-summary.sh');
  expect(await job.summary()).not.toContain('a file of the runner');
  expect(await job.summary()).toContain('no summary was written in this job');
});

test('pull_request_target is refused in one line saying why and what to use; nothing runs', async () => {
  const job = await actionJob('pull_request_target', { writes: 'gate.md' });
  const measured = await job.step('measure.sh');
  expect(measured.exitCode).toBe(2);
  expect(measured.all).toBe(
    "auditbench action: GITHUB_EVENT_NAME is pull_request_target, which runs with the base repository's token and, with its default checkout, compares the base with itself: trigger the workflow on pull_request instead (with permissions: contents: read)",
  );
  expect(await job.calls()).toBe('');
});
