import { describe, expect, test } from 'vitest';
import {
  applyContainerRuntimeDefaults,
  externalTargetRefusal,
  launchEnvironment,
  loadEnvironment,
} from './env.ts';
import { retiredVariables } from './policy.ts';

describe('an external server is written to only when said to be disposable', () => {
  const external = { AUDITBENCH_TARGET: 'external', AUDITBENCH_DSN: 'mysql://root:pw@127.0.0.1:3307' };

  test('unset or 0: refused in one line naming the server, the setting and what to do', () => {
    for (const env of [external, { ...external, AUDITBENCH_DSN_DISPOSABLE: '0' }]) {
      expect(externalTargetRefusal(loadEnvironment(env))).toBe(
        'AUDITBENCH_TARGET=external: auditbench did not start the server at 127.0.0.1:3307, and its runs install and uninstall plugins, set globals, load tables, rotate logs and restart it: set AUDITBENCH_DSN_DISPOSABLE=1 if it is a server you can spare, else use AUDITBENCH_TARGET=local or container',
      );
    }
  });

  test('1, or a server auditbench starts itself: nothing to refuse', () => {
    expect(
      externalTargetRefusal(loadEnvironment({ ...external, AUDITBENCH_DSN_DISPOSABLE: '1' })),
    ).toBeNull();
    expect(externalTargetRefusal(loadEnvironment({ AUDITBENCH_DSN: external.AUDITBENCH_DSN }))).toBeNull();
  });
});

describe('loadEnvironment', () => {
  test.for(Object.entries(retiredVariables))(
    'a retired variable still set stops the run, naming what replaced it: %s',
    ([name, instead]) => {
      const variable = `AUDITBENCH_${name}`;
      expect(() => loadEnvironment({ [variable]: '1' })).toThrow(
        `${variable} is no longer read: ${instead}; unset it (got '1')`,
      );
    },
  );

  test('defaults', () => {
    expect(loadEnvironment({})).toEqual({
      workload: 'smoke',
      mysqldPath: null,
      reportDir: 'reports',
      pluginDir: null,
      searchPath: '',
      maxRegressionPp: null,
      gateInconclusive: null,
      baseRef: 'origin/main',
      gitBranch: null,
      githubStepSummary: null,
      githubActions: false,
      target: 'local',
      images: ['auditbench/mariadb:10.11'],
      dsn: null,
      restartCmd: null,
      dsnDisposable: false,
      configPath: 'auditbench.config.ts',
      runIds: null,
      dockerOptOut: false,
      matrix: { kind: 'sample' },
      faultSets: ['disk'],
      settingsSweep: 'small',
      counted: 'auto',
      largePool: false,
    });
  });

  test('the base branch: AUDITBENCH_BASE_REF, else the default ./auditbench found, else origin/main', () => {
    expect(loadEnvironment({ AUDITBENCH_DEFAULT_BASE_REF: 'master' }).baseRef).toBe('master');
    expect(
      loadEnvironment({ AUDITBENCH_DEFAULT_BASE_REF: 'master', AUDITBENCH_BASE_REF: 'origin/release' })
        .baseRef,
    ).toBe('origin/release');
  });

  test('reads every variable', () => {
    const config = loadEnvironment({
      AUDITBENCH_WORKLOAD: 'seed',
      AUDITBENCH_MYSQLD: '/opt/mysql/bin/mysqld',
      AUDITBENCH_REPORT_DIR: '/tmp/r',
      AUDITBENCH_PLUGIN_DIR: '/opt/plugins',
      AUDITBENCH_MAX_REGRESSION_PP: '2.5',
      AUDITBENCH_GATE_INCONCLUSIVE: 'pass',
      AUDITBENCH_BASE_REF: 'upstream/release',
      AUDITBENCH_GIT_BRANCH: 'feature/x',
      GITHUB_STEP_SUMMARY: '/tmp/step-summary.md',
      GITHUB_ACTIONS: 'true',
      AUDITBENCH_TARGET: 'external',
      AUDITBENCH_IMAGES: 'auditbench/mariadb:11.8, auditbench/mysql:9.7',
      AUDITBENCH_DSN: 'mysql://bench:p%40ss@localhost:3307',
      AUDITBENCH_RESTART_CMD: 'systemctl restart mariadb',
      AUDITBENCH_DSN_DISPOSABLE: '1',
      AUDITBENCH_CONFIG: '../dba/auditbench.config.ts',
      AUDITBENCH_RUNS: 'server_audit, general_log',
      AUDITBENCH_DOCKER: '0',
      AUDITBENCH_MATRIX: '2/3',
      AUDITBENCH_SETTINGS_SWEEP: 'full',
      AUDITBENCH_FAULTS: 'receiver, disk, receiver',
    });
    expect(config).toEqual({
      workload: 'seed',
      mysqldPath: '/opt/mysql/bin/mysqld',
      reportDir: '/tmp/r',
      pluginDir: '/opt/plugins',
      searchPath: '',
      maxRegressionPp: 2.5,
      gateInconclusive: 'pass',
      baseRef: 'upstream/release',
      gitBranch: 'feature/x',
      githubStepSummary: '/tmp/step-summary.md',
      githubActions: true,
      target: 'external',
      images: ['auditbench/mariadb:11.8', 'auditbench/mysql:9.7'],
      // localhost would make sysbench use the unix socket; the DSN means TCP.
      dsn: { host: '127.0.0.1', port: 3307, user: 'bench', password: 'p@ss' },
      restartCmd: 'systemctl restart mariadb',
      dsnDisposable: true,
      configPath: '../dba/auditbench.config.ts',
      runIds: ['server_audit', 'general_log'],
      dockerOptOut: true,
      matrix: { kind: 'shard', index: 2, count: 3 },
      faultSets: ['receiver', 'disk'],
      settingsSweep: 'full',
      counted: 'auto',
      largePool: false,
    });
  });

  test.for([
    [
      'AUDITBENCH_WORKLOAD',
      'fast',
      "AUDITBENCH_WORKLOAD must be one of quick, smoke, standard, seed; got 'fast'",
    ],
    ['AUDITBENCH_REPORT_DIR', ' ', "AUDITBENCH_REPORT_DIR must not be empty; got ' '"],
    ['AUDITBENCH_TARGET', 'k8s', "AUDITBENCH_TARGET must be one of local, container, external; got 'k8s'"],
    [
      'AUDITBENCH_IMAGES',
      'auditbench/mariadb:10.11,,x',
      "AUDITBENCH_IMAGES must be a comma-separated list of images, e.g. auditbench/mariadb:10.11,auditbench/mysql:9.7; got 'auditbench/mariadb:10.11,,x'",
    ],
    [
      'AUDITBENCH_DSN',
      'root@127.0.0.1',
      "AUDITBENCH_DSN must look like mysql://user:password@127.0.0.1:3306; got 'root@127.0.0.1'",
    ],
    [
      'AUDITBENCH_DSN',
      'mysql://root:secret@db.example.com:3306',
      "AUDITBENCH_DSN host 'db.example.com' is refused: servers listen on 127.0.0.1 or in containers you started; got 'mysql://root:***@db.example.com:3306'",
    ],
    [
      'AUDITBENCH_DSN',
      'mysql://root@10.0.0.5',
      "AUDITBENCH_DSN host '10.0.0.5' is refused: servers listen on 127.0.0.1 or in containers you started; got 'mysql://root@10.0.0.5'",
    ],
    [
      'AUDITBENCH_DSN',
      'mysql://root@127.0.0.1/shop',
      "AUDITBENCH_DSN must not name a database (shop): auditbench works in its own schema, auditbench; got 'mysql://root@127.0.0.1/shop'",
    ],
    ['AUDITBENCH_RESTART_CMD', '', "AUDITBENCH_RESTART_CMD must not be empty; got ''"],
    [
      'AUDITBENCH_DSN_DISPOSABLE',
      'true',
      "AUDITBENCH_DSN_DISPOSABLE must be 1 (the server at AUDITBENCH_DSN is one you can spare) or 0; got 'true'",
    ],
  ])('%s=%s is rejected', ([name, value, message]) => {
    expect(() => loadEnvironment({ [name as string]: value })).toThrow(message as string);
  });

  test.for([
    ['mysql://root@127.0.0.1', { host: '127.0.0.1', port: 3306, user: 'root', password: '' }],
    ['mariadb://u:pw@[::1]:3310/', { host: '::1', port: 3310, user: 'u', password: 'pw' }],
    ['mysql://u:@127.1.2.3:4000', { host: '127.1.2.3', port: 4000, user: 'u', password: '' }],
  ])('AUDITBENCH_DSN=%s is a loopback server', ([dsn, expected]) => {
    expect(loadEnvironment({ AUDITBENCH_DSN: dsn as string }).dsn).toEqual(expected);
  });

  test('the external target needs a DSN', () => {
    expect(() => loadEnvironment({ AUDITBENCH_TARGET: 'external' })).toThrow(
      'AUDITBENCH_TARGET=external needs AUDITBENCH_DSN, e.g. mysql://root:secret@127.0.0.1:3306; got none',
    );
  });

  test("the launcher's AUDITBENCH_USER_DIR is the user's folder, kept out of what the commands hand on", () => {
    expect(launchEnvironment({ AUDITBENCH_USER_DIR: '/ops', PATH: '/bin' })).toEqual({
      userDir: '/ops',
      env: { PATH: '/bin' },
    });
    expect(launchEnvironment({ AUDITBENCH_USER_DIR: '', PATH: '/bin' }).userDir).toBeNull();
  });

  test('container runtime defaults fill only what the user left unset', () => {
    const env: Record<string, string | undefined> = { TESTCONTAINERS_RYUK_DISABLED: 'false' };
    applyContainerRuntimeDefaults(env);
    expect(env).toEqual({ TESTCONTAINERS_RYUK_DISABLED: 'false', TESTCONTAINERS_HOST_OVERRIDE: 'localhost' });
  });

  test.for([
    [
      '0',
      "AUDITBENCH_MAX_REGRESSION_PP must be a number of percentage points above 0 and at most 100, e.g. 5; got '0'",
    ],
    [
      'five',
      "AUDITBENCH_MAX_REGRESSION_PP must be a number of percentage points above 0 and at most 100, e.g. 5; got 'five'",
    ],
  ])('AUDITBENCH_MAX_REGRESSION_PP=%s is rejected', ([value, message]) => {
    expect(() => loadEnvironment({ AUDITBENCH_MAX_REGRESSION_PP: value })).toThrow(message);
  });

  test.for(['', 'maybe', 'PASS '])(
    'AUDITBENCH_GATE_INCONCLUSIVE=%j is rejected, naming what it takes',
    (value) => {
      expect(() => loadEnvironment({ AUDITBENCH_GATE_INCONCLUSIVE: value })).toThrow(
        `AUDITBENCH_GATE_INCONCLUSIVE must be fail (an interval that straddles the allowed regression fails the gate, the default) or pass; got '${value}'`,
      );
    },
  );

  test.for([
    [{ GITHUB_HEAD_REF: 'feature/pr', GITHUB_REF_NAME: '12/merge' }, 'feature/pr'],
    // GitHub sets GITHUB_HEAD_REF to '' outside pull requests: a push to main records 'main'.
    [{ GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main' }, 'main'],
    [{ AUDITBENCH_GIT_BRANCH: 'mine', GITHUB_HEAD_REF: 'feature/pr' }, 'mine'],
    [{ GITHUB_STEP_SUMMARY: '' }, null],
  ] as const)('the history branch from %j is %s', ([env, branch]) => {
    expect(loadEnvironment(env).gitBranch).toBe(branch);
  });
});
