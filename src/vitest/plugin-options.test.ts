import path from 'node:path';
import { expect, test } from 'vitest';
import { createVitest } from 'vitest/node';
import { vitestProcessEnv } from '../config/env.ts';
import { parallelRunsSuiteProblem, pluginOptionsProblem, runsSuiteProblem } from './plugin-options.ts';

const root = '/home/dba/audit-repo';
const fix = "write it relative to the project's root and inside it, e.g. 'audit/**/*.test.ts'";

test.for<[string, unknown, string]>([
  [
    'a pattern that climbs',
    { include: ['../outside/**'] },
    `auditbench({ include }): '../outside/**' climbs out of the project root ${root} (a '..'): ${fix}`,
  ],
  [
    'a climb in the middle',
    { include: ['audit/../../x/*.ts'] },
    `auditbench({ include }): 'audit/../../x/*.ts' climbs out of the project root ${root} (a '..'): ${fix}`,
  ],
  [
    'a climb inside braces',
    { include: ['{..,audit}/*.ts'] },
    `auditbench({ include }): '{..,audit}/*.ts' climbs out of the project root ${root} (a '..'): ${fix}`,
  ],
  [
    'an absolute path outside',
    { include: ['/etc/**'] },
    `auditbench({ include }): '/etc/**' is outside the project root ${root}: ${fix}`,
  ],
  [
    'an exclude outside',
    { exclude: ['../**'] },
    `auditbench({ exclude }): '../**' climbs out of the project root ${root} (a '..'): ${fix}`,
  ],
  [
    'a pattern that is not text',
    { include: [42] },
    `auditbench({ include }): 42 is not a glob pattern: ${fix}`,
  ],
  [
    'one pattern, not a list',
    { include: 'audit/**' },
    `auditbench({ include }) must be a list of glob patterns, got "audit/**": e.g. ['audit/**/*.test.ts']`,
  ],
  [
    'a misspelt setting',
    { env: { AUDITBENCH_WORKLAOD: 'quick' } },
    "auditbench({ env }): 'AUDITBENCH_WORKLAOD' is not a setting auditbench reads: did you mean AUDITBENCH_WORKLOAD?",
  ],
  [
    'another variable',
    { env: { NODE_OPTIONS: '--inspect' } },
    "auditbench({ env }): 'NODE_OPTIONS' is not a setting auditbench reads: env takes the AUDITBENCH_* settings of docs/settings.md; set other variables in your environment",
  ],
  [
    'a setting auditbench sets itself',
    { env: { AUDITBENCH_GATE_PLAN: '/tmp/p' } },
    "auditbench({ env }): 'AUDITBENCH_GATE_PLAN' is not a setting auditbench reads: env takes the AUDITBENCH_* settings of docs/settings.md; set other variables in your environment",
  ],
  [
    'an undefined value',
    { env: { AUDITBENCH_RUNS: undefined } },
    'auditbench({ env }): AUDITBENCH_RUNS is undefined, and an environment variable holds text: give a string, or leave AUDITBENCH_RUNS out',
  ],
  [
    'a number',
    { env: { AUDITBENCH_LARGE_POOL: 1 } },
    "auditbench({ env }): AUDITBENCH_LARGE_POOL is 1 (a number), and an environment variable holds text: give '1', or leave AUDITBENCH_LARGE_POOL out",
  ],
  [
    'not an object',
    { env: ['AUDITBENCH_RUNS=a'] },
    `auditbench({ env }) must be an object of settings, e.g. { AUDITBENCH_WORKLOAD: 'standard' }, got ["AUDITBENCH_RUNS=a"]`,
  ],
])('%s is refused in one line', ([, options, line]) => {
  expect(pluginOptionsProblem(root, options as Parameters<typeof pluginOptionsProblem>[1])).toBe(line);
});

test('patterns inside the root and known settings pass', () => {
  const options = {
    include: ['audit/**/*.test.ts', `${root}/more/*.test.ts`, 'a..b/*.ts'],
    exclude: ['audit/drafts/**'],
    env: { AUDITBENCH_WORKLOAD: 'quick', AUDITBENCH_PLUGINS_ONLY: '1', AUDITBENCH_RUNS: 'pci' },
  };
  expect(pluginOptionsProblem(root, options)).toBeNull();
  expect(pluginOptionsProblem(root, {})).toBeNull();
});

test('an undefined env value is never set as the text "undefined"', () => {
  expect(() => vitestProcessEnv({ AUDITBENCH_NOT_SET_BY_THIS_TEST: undefined })).toThrow(
    'AUDITBENCH_NOT_SET_BY_THIS_TEST is undefined',
  );
  expect(process.env.AUDITBENCH_NOT_SET_BY_THIS_TEST).toBeUndefined();
});

/** Vitest's own matcher (TestProject.matchesTestGlob) for a project of `exclude`, as the plugin asks it. */
async function collectsWith(exclude: string[]): Promise<(file: string) => boolean> {
  const include = ['node_modules/auditbench/suites/runs.suite.ts', 'audit/**/*.test.ts'];
  const vitest = await createVitest('test', { config: false, root, watch: false, include, exclude });
  const project = vitest.projects[0];
  await vitest.close();
  return (file) => project?.matchesTestGlob(file) ?? false;
}

test('an exclude that drops the runs suite is refused, naming it; one that leaves it in passes', async () => {
  const suite = path.join(root, 'node_modules/auditbench/suites/runs.suite.ts');
  const usual = ['**/node_modules/**'];
  expect(runsSuiteProblem(root, suite, usual, await collectsWith(usual))).toBe(
    "auditbench({ exclude }): '**/node_modules/**' leaves out the runs suite (node_modules/auditbench/suites/runs.suite.ts), which the project runs for every configured run: narrow it to your own files, e.g. 'audit/drafts/**' (the project collects from node_modules only what your include patterns reach)",
  );
  const own = ['audit/drafts/**'];
  expect(runsSuiteProblem(root, suite, own, await collectsWith(own))).toBeNull();
});

test('parallel patterns are checked as include is, and one that takes in the runs suite is refused', async () => {
  expect(pluginOptionsProblem(root, { parallel: ['../elsewhere/**'] })).toBe(
    "auditbench({ parallel }): '../elsewhere/**' climbs out of the project root /home/dba/audit-repo (a '..'): write it relative to the project's root and inside it, e.g. 'audit/**/*.test.ts'",
  );
  expect(pluginOptionsProblem(root, { parallel: 'audit/records/**' })).toMatch(
    /^auditbench\(\{ parallel \}\) must be a list/,
  );
  const suite = path.join(root, 'node_modules/auditbench/suites/runs.suite.ts');
  expect(parallelRunsSuiteProblem(root, suite, ['**/*.suite.ts'], () => true)).toBe(
    "auditbench({ parallel }): '**/*.suite.ts' takes in the runs suite (node_modules/auditbench/suites/runs.suite.ts), which measures, and a measurement never runs beside another file: name only your files that measure nothing, e.g. 'audit/records/**'",
  );
  expect(parallelRunsSuiteProblem(root, suite, ['audit/records/**'], () => false)).toBeNull();
});
