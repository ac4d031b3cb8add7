import { describe, expect, test } from 'vitest';
import { importClosure, relativeImports, selectRuns, selectSuites } from './selection.ts';

test('relative imports, re-exports and dynamic imports are found and resolved; packages are not', () => {
  const source = `
import { serverAudit } from '../src/profiles/server-audit.ts';
import { pluginSuite } from './shared/plugin-suite.ts';
import type { X } from "../src/x.ts";
export { y } from './y.ts';
const z = await import('./z.ts');
import { test } from 'vitest';
import './side-effect.ts';
`;
  expect(relativeImports('suites/server-audit.suite.ts', source).sort()).toEqual([
    'src/profiles/server-audit.ts',
    'src/x.ts',
    'suites/shared/plugin-suite.ts',
    'suites/side-effect.ts',
    'suites/y.ts',
    'suites/z.ts',
  ]);
});

test('the closure follows imports transitively and survives cycles', () => {
  const importsOf = { a: ['b'], b: ['c', 'a'], c: [] };
  expect([...importClosure('a', importsOf)].sort()).toEqual(['a', 'b', 'c']);
});

describe('selectSuites', () => {
  const suites = [
    'suites/server-audit.suite.ts',
    'suites/percona-audit-log.suite.ts',
    'suites/server-target.suite.ts',
  ];
  const importsOf = {
    'suites/server-audit.suite.ts': ['src/profiles/server-audit.ts', 'suites/shared/plugin-suite.ts'],
    'suites/percona-audit-log.suite.ts': [
      'src/profiles/percona-audit-log.ts',
      'suites/shared/plugin-suite.ts',
    ],
    'src/profiles/percona-audit-log.ts': ['src/profiles/percona-shared.ts', 'src/plugins/profile.ts'],
    'suites/server-target.suite.ts': ['src/servers/start-server.ts'],
  };
  const select = (...changed: string[]) => selectSuites({ changed, suites, importsOf });

  test('a changed profile runs the suite that imports it, and says why', () => {
    expect(select('src/profiles/server-audit.ts', 'README.md')).toEqual({
      kind: 'some',
      suites: [{ suite: 'suites/server-audit.suite.ts', because: ['src/profiles/server-audit.ts'] }],
    });
  });

  test('a file a profile imports counts as the profile', () => {
    expect(select('src/profiles/percona-shared.ts')).toMatchObject({
      suites: [{ suite: 'suites/percona-audit-log.suite.ts' }],
    });
  });

  test('a changed suite file runs itself', () => {
    expect(select('suites/server-target.suite.ts')).toMatchObject({
      suites: [{ suite: 'suites/server-target.suite.ts' }],
    });
  });

  test.for([
    'src/stats/verdict.ts',
    'suites/shared/plugin-suite.ts',
    'vitest.config.ts',
    'package.json',
    'package-lock.json',
    'src/workload/create-database.lua',
  ])('harness change %s runs every suite', (file) => {
    expect(select('src/profiles/server-audit.ts', file)).toEqual({ kind: 'all', because: [file] });
  });

  test.for([
    ['docs only', ['README.md', 'ARCHITECTURE.md']],
    ['reporters and unit fixtures', ['reporters/format-summary.ts', 'fixtures/logs/server-audit-10.11.log']],
    ['a profile no suite imports', ['src/profiles/unused.ts']],
    ['unit tests beside harness code', ['src/stats/verdict.test.ts', 'src/profiles/profiles.test.ts']],
    ['nothing', []],
  ] as const)('%s: nothing to run', ([, changed]) => {
    expect(select(...changed)).toEqual({ kind: 'none' });
  });
});

describe('selectRuns', () => {
  const base = {
    server_audit: { hash: 'a', limitPct: 50 },
    'server_audit-connect': { hash: 'b', limitPct: 50 },
    general_log: { hash: 'c', limitPct: 50 },
  };
  test('only the run whose configuration changed, and new runs, are selected, each with why', () => {
    const head = {
      server_audit: { hash: 'a', limitPct: 50 },
      'server_audit-connect': { hash: 'B', limitPct: 50 },
      general_log: { hash: 'c', limitPct: 30 },
      sql_error_log: { hash: 'd', limitPct: 50 },
    };
    expect(selectRuns(head, base)).toEqual([
      { run: 'server_audit-connect', because: 'settings, profile or option file changed' },
      { run: 'general_log', because: 'limit changed from 50% to 30%' },
      { run: 'sql_error_log', because: 'new run' },
    ]);
  });
  test('a changed traffic (a script’s content, accounts, added load) selects its run', () => {
    const was = { x: { hash: 'a', limitPct: 50, traffic: '{"script":{"sha256":"1"}}' } };
    const now = { x: { hash: 'a', limitPct: 50, traffic: '{"script":{"sha256":"2"}}' } };
    expect(selectRuns(now, was)).toEqual([
      { run: 'x', because: 'traffic changed (its accounts, added load or script)' },
    ]);
    expect(selectRuns(was, was)).toEqual([]);
  });
  test('nothing changed selects nothing; a base without runs selects all', () => {
    expect(selectRuns(base, base)).toEqual([]);
    expect(selectRuns({ x: { hash: 'a', limitPct: 1 } }, null)).toEqual([
      { run: 'x', because: 'the base has no configuration runs' },
    ]);
  });
});
