import { describe, expect, test } from 'vitest';
import { loadConfig } from './env.ts';

describe('loadConfig', () => {
  test('defaults', () => {
    expect(loadConfig({})).toEqual({
      workload: 'smoke',
      mysqldPath: null,
      maxOverheadPct: null,
      reportDir: 'reports',
      pluginDir: null,
      inconclusive: 'fail',
      precisionRuns: { overhead: 5, aa: 10 },
      searchPath: '',
    });
  });

  test('reads every variable', () => {
    const config = loadConfig({
      AUDITBENCH_WORKLOAD: 'seed',
      AUDITBENCH_MYSQLD: '/opt/mysql/bin/mysqld',
      AUDITBENCH_MAX_OVERHEAD_PCT: '12.5',
      AUDITBENCH_REPORT_DIR: '/tmp/r',
      AUDITBENCH_INCONCLUSIVE: 'pass',
      AUDITBENCH_PLUGIN_DIR: '/opt/plugins',
      AUDITBENCH_PRECISION_RUNS: '3',
      AUDITBENCH_PRECISION_AA_RUNS: '4',
    });
    expect(config).toEqual({
      workload: 'seed',
      mysqldPath: '/opt/mysql/bin/mysqld',
      maxOverheadPct: 12.5,
      reportDir: '/tmp/r',
      pluginDir: '/opt/plugins',
      inconclusive: 'pass',
      precisionRuns: { overhead: 3, aa: 4 },
      searchPath: '',
    });
  });

  test.for([
    ['AUDITBENCH_WORKLOAD', 'fast', "AUDITBENCH_WORKLOAD must be one of smoke, standard, seed; got 'fast'"],
    [
      'AUDITBENCH_MAX_OVERHEAD_PCT',
      '140',
      "AUDITBENCH_MAX_OVERHEAD_PCT must be a number above 0 and below 100, e.g. 30; got '140'",
    ],
    [
      'AUDITBENCH_MAX_OVERHEAD_PCT',
      'ten',
      "AUDITBENCH_MAX_OVERHEAD_PCT must be a number above 0 and below 100, e.g. 30; got 'ten'",
    ],
    [
      'AUDITBENCH_MAX_OVERHEAD_PCT',
      '',
      "AUDITBENCH_MAX_OVERHEAD_PCT must be a number above 0 and below 100, e.g. 30; got ''",
    ],
    ['AUDITBENCH_INCONCLUSIVE', 'maybe', "AUDITBENCH_INCONCLUSIVE must be fail or pass; got 'maybe'"],
    [
      'AUDITBENCH_PRECISION_RUNS',
      '2.5',
      "AUDITBENCH_PRECISION_RUNS must be a whole number from 1 to 100; got '2.5'",
    ],
    ['AUDITBENCH_REPORT_DIR', ' ', "AUDITBENCH_REPORT_DIR must not be empty; got ' '"],
  ])('%s=%s is rejected', ([name, value, message]) => {
    expect(() => loadConfig({ [name as string]: value })).toThrow(message as string);
  });
});
