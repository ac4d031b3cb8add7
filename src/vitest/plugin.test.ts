import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import {
  auditbenchProject,
  auditbenchProjects,
  auditbenchReporters,
  packageRoot,
  projectFilters,
  reportLinkProblem,
} from './plugin.ts';

const pkg = packageRoot();

test('the project holds the runs suite and the DBA’s files, with what a benchmark needs', () => {
  const dba = path.join(pkg, '..', 'dba');
  const { test: project } = auditbenchProject(dba, {}, 3);
  expect(project?.name).toBe('auditbench');
  expect(project?.include).toEqual([
    path.relative(dba, path.join(pkg, 'suites/runs.suite.ts')),
    'audit/**/*.test.ts',
  ]);
  expect(project?.exclude).toEqual([]);
  expect(project?.server?.deps?.inline).toEqual(['auditbench']);
  expect(project).toMatchObject({ pool: 'forks', fileParallelism: false, retry: 0, testTimeout: 3_600_000 });
  expect(project?.sequence).toEqual({ concurrent: false, groupOrder: 3 });
  expect(project?.globalSetup).toEqual([path.join(pkg, 'suites/shared/check-config.ts')]);
});

test('auditbench’s own suites name the runs suite once', () => {
  const { test: project } = auditbenchProject(pkg, { name: 'suites', include: ['suites/runs.suite.ts'] }, 1);
  expect(project?.include).toEqual(['suites/runs.suite.ts']);
});

test('parallel files get a project of their own, three at a time, before the measuring one, which leaves them out', () => {
  const dba = path.join(pkg, '..', 'dba');
  const [first, second] = auditbenchProjects(
    dba,
    { parallel: ['audit/records/**'], exclude: ['audit/drafts/**'] },
    2,
  );
  expect(first?.test).toMatchObject({
    name: 'auditbench-parallel',
    include: ['audit/records/**'],
    exclude: ['audit/drafts/**'],
    fileParallelism: true,
    maxWorkers: 3,
    sequence: { groupOrder: 2 },
    provide: { auditbenchParallel: true },
    globalSetup: [path.join(pkg, 'suites/shared/check-config.ts')],
  });
  expect(second?.test).toMatchObject({
    name: 'auditbench',
    fileParallelism: false,
    sequence: { groupOrder: 3 },
  });
  expect(second?.test?.exclude).toEqual(['audit/drafts/**', 'audit/records/**']);
  expect(second?.test?.provide).toBeUndefined();
  expect(auditbenchProjects(dba, {}, 2).map((p) => p.test?.name)).toEqual(['auditbench']);
});

test('the reporters report the project’s tests only, JUnit in the report dir', () => {
  const [progress, reporter] = auditbenchReporters(['auditbench'], { AUDITBENCH_REPORT_DIR: '/r' });
  expect(progress).toEqual([path.join(pkg, 'reporters/progress-reporter.ts'), { projects: ['auditbench'] }]);
  expect(reporter?.[1]).toEqual({ projects: ['auditbench'], junit: { outputFile: '/r/junit.xml' } });
});

test.for<[string[], string, boolean]>([
  [['--project', 'auditbench'], 'auditbench', true],
  [['--project=suites'], 'suites', true],
  [['--project', 'audit*'], 'auditbench', true],
  [['--project', 'unit'], 'auditbench', false],
  [['--project', 'a.b'], 'aXb', false],
])('--project filters %j match %s: %s', ([argv, name, matches]) => {
  expect(projectFilters(argv).some((filter) => filter.test(name))).toBe(matches);
});

test('a junit.xml that is a symbolic link is refused before Vitest opens it for writing', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugin-links-'));
  try {
    mkdirSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, 'reports'));
    expect(await reportLinkProblem(dir, {})).toBeNull();
    writeFileSync(path.join(dir, 'precious'), 'kept\n');
    symlinkSync(path.join(dir, 'precious'), path.join(dir, 'reports', 'junit.xml'));
    const link = path.join(dir, 'reports', 'junit.xml');
    expect(await reportLinkProblem(dir, {})).toBe(
      `${link} is a symbolic link, and auditbench writes ${link} only where no link it did not make leads: remove the link (or set AUDITBENCH_REPORT_DIR to a folder of real directories)`,
    );
    // Another report folder is checked where it is.
    expect(await reportLinkProblem(dir, { AUDITBENCH_REPORT_DIR: 'out' })).toBeNull();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
