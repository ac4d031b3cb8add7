import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { GateSelection } from '../../gate/select.ts';
import type { CliContext } from '../context.ts';
import { describeSelection, gateInconclusive, refusedEvent, runGate } from './gate.ts';

const context = (env: Record<string, string> = {}) => {
  const out: string[] = [];
  const ctx: CliContext = {
    userDir: '/nonexistent',
    packageDir: '/nonexistent',
    version: '0.0.0',
    env,
    stdout: (text) => out.push(text),
    stderr: (text) => out.push(text),
  };
  return { ctx, out };
};

test('the selection prints the base, then one line per run with its reason and design', () => {
  const selection: GateSelection = {
    repo: { root: '/repo' },
    base: { ref: 'main', mergeBase: '7ac5f84d00000000000000000000000000000000' },
    changed: ['ops/audit.cnf'],
    headConfig: '/repo/auditbench.config.ts',
    baseConfig: null,
    baseTree: null,
    items: [
      {
        kind: 'compare',
        runId: 'ops-cnf',
        because: 'settings, profile or option file changed',
        design: 'restarts',
        why: 'startup options differ: separate runs, a restart before each, base and head in ABBA order',
        differences: ['server_audit_file_rotations: 3 → 5'],
      },
    ],
    suites: null,
    notes: [],
    checkout: null,
  };
  expect(describeSelection(selection, 'auditbench.config.ts')).toEqual([
    'auditbench gate: 1 file(s) changed since main (7ac5f84)',
    '  run ops-cnf: settings, profile or option file changed (server_audit_file_rotations: 3 → 5); startup options differ: separate runs, a restart before each, base and head in ABBA order',
  ]);
  expect(describeSelection({ ...selection, items: [] }, 'auditbench.config.ts')[1]).toBe(
    '  no run of auditbench.config.ts changed',
  );
});

test('bad input is one line and exit 2 before git or a server is touched', async () => {
  const unknown = context();
  expect(await runGate(['--bogus'], unknown.ctx)).toBe(2);
  expect(unknown.out.join('')).toBe("auditbench: unknown option '--bogus'; see auditbench gate --help\n");
  const stray = context();
  expect(await runGate(['main'], stray.ctx)).toBe(2);
  expect(stray.out.join('')).toContain("unexpected argument 'main' (the base branch is --base <ref>;");
  await expect(runGate([], context({ AUDITBENCH_MAX_REGRESSION_PP: 'five' }).ctx)).rejects.toThrow(
    "AUDITBENCH_MAX_REGRESSION_PP must be a number of percentage points above 0 and at most 100, e.g. 5; got 'five'",
  );
});

test('--help prints the usage and exits 0', async () => {
  const help = context();
  expect(await runGate(['--help'], help.ctx)).toBe(0);
  expect(help.out.join('')).toContain('usage: auditbench gate [--list] [--base <ref>]');
});

test("the policy is read from the user's configuration, where the command runs, not the package's", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-gate-policy-'));
  try {
    const defineConfig = path.resolve('src/runs/define-config.ts');
    await writeFile(
      path.join(dir, 'auditbench.config.ts'),
      `import { defineConfig } from ${JSON.stringify(defineConfig)};\nexport default defineConfig({ runs: [{ plugin: 'general_log' }], maxRegressionPp: 3 });\n`,
    );
    const { ctx, out } = context({ AUDITBENCH_MAX_REGRESSION_PP: '5' });
    // Not a git repository: the selection fails after the policy was read and said.
    await runGate(['--list'], { ...ctx, userDir: dir }).catch(() => {});
    expect(out.join('')).toContain(
      "AUDITBENCH_MAX_REGRESSION_PP=5 is used over auditbench.config.ts's maxRegressionPp (3)",
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('pull_request_target is refused before git is touched, saying why and what to use; other events pass', async () => {
  await expect(
    runGate(['--list'], context({ GITHUB_EVENT_NAME: 'pull_request_target' }).ctx),
  ).rejects.toThrow(
    /^auditbench gate: GITHUB_EVENT_NAME is pull_request_target, which runs with the base repository's token and, with its default checkout, compares the base with itself: trigger the workflow on pull_request instead \(with permissions: contents: read\)$/,
  );
  for (const event of [undefined, 'pull_request', 'push', 'workflow_dispatch'])
    expect(refusedEvent(event)).toBeNull();
});

test("an undecided gate goes by the configuration's inconclusive (fail unless it says pass), AUDITBENCH_GATE_INCONCLUSIVE over it, saying so", () => {
  const said: string[] = [];
  const say = (line: string) => said.push(line);
  expect(gateInconclusive({ gateInconclusive: null }, 'fail', say)).toBe('fail');
  expect(gateInconclusive({ gateInconclusive: null }, 'pass', say)).toBe('pass');
  expect(gateInconclusive({ gateInconclusive: 'fail' }, 'fail', say)).toBe('fail');
  expect(said).toEqual([]);
  expect(gateInconclusive({ gateInconclusive: 'pass' }, 'fail', say)).toBe('pass');
  expect(said).toEqual([
    "auditbench gate: AUDITBENCH_GATE_INCONCLUSIVE=pass is used over the configuration's inconclusive ('fail')",
  ]);
});
