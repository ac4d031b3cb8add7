import { describe, expect, test } from 'vitest';
import type { CliContext } from './context.ts';
import { main } from './main.ts';
import { userEnv } from './user-paths.ts';
import { splitVitestArgs } from './vitest-run.ts';

function fakeContext(env: Record<string, string> = {}): CliContext & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    userDir: '/home/dba/ops',
    packageDir: '/nowhere/auditbench',
    version: '9.9.9',
    env,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    out,
    err,
  };
}

describe('main', () => {
  test.for([
    [['--help'], 0, 'usage: auditbench <command>'],
    [['-h'], 0, 'usage: auditbench <command>'],
    [['help', 'list'], 0, 'usage: auditbench list'],
    [['gate', '--help'], 0, 'usage: auditbench gate'],
    [['list', '--help'], 0, 'usage: auditbench list'],
    [['bench', '-h'], 0, 'usage: auditbench bench'],
    [['test', '--help'], 0, 'usage: auditbench test'],
    [['matrix', '--help'], 0, 'usage: auditbench matrix [--shard <i>/<n>]'],
    [['--version'], 0, '9.9.9'],
  ] as const)('%j prints its text and exits %i', async ([argv, code, text]) => {
    const context = fakeContext();
    expect(await main([...argv], context)).toBe(code);
    expect(context.out.join('')).toContain(text);
  });

  test.for([
    [['matrix', '--bogus'], "auditbench: matrix: Unknown option '--bogus'"],
    [['matrix', 'now'], 'auditbench: matrix: Unexpected argument'],
    [
      ['matrix', '--shard', '4/3'],
      "auditbench: matrix: --shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/3; got '4/3'",
    ],
    [['matrix', '--shard', 'all'], "--shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/3; got 'all'"],
    [['matrix', '--shard', '1/2', '--merge-reports', 'blobs'], '--shard and --merge-reports are two steps'],
  ] as const)('matrix %j is refused in one line, exit 2, before setup', async ([argv, says]) => {
    const context = fakeContext();
    expect(await main([...argv], context)).toBe(2);
    const err = context.err.join('');
    expect(err).toContain(says);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toContain('see auditbench matrix --help');
  });

  test('an unknown command names itself and the known ones, and exits 2', async () => {
    const context = fakeContext();
    expect(await main(['frobnicate'], context)).toBe(2);
    expect(context.err.join('')).toContain(
      "unknown command 'frobnicate'; use one of bench, test, gate, matrix, list",
    );
  });

  test('an unknown global option and no command at all exit 2', async () => {
    expect(await main(['--colour'], fakeContext())).toBe(2);
    expect(await main([], fakeContext())).toBe(2);
  });

  test('a bad list option exits 2 before reading anything', async () => {
    const context = fakeContext();
    expect(await main(['list', '--jsn'], context)).toBe(2);
    expect(context.err.join('')).toContain("Unknown option '--jsn'");
  });
});

describe('splitVitestArgs', () => {
  test.for([
    [[], false, []],
    [['-t', 'server_audit'], false, ['-t', 'server_audit']],
    [['--project', 'unit', '--help'], true, ['--project', 'unit']],
    [['--', '--help'], false, ['--help']],
    [['suites/runs.test.ts', '--', '-t', 'x'], false, ['suites/runs.test.ts', '-t', 'x']],
  ] as const)('%j: help %s, vitest gets %j', ([argv, help, vitest]) => {
    expect(splitVitestArgs([...argv])).toEqual({ help, vitest });
  });
});

describe('userEnv', () => {
  test('path settings are the user’s, relative to where the command runs, defaults included', () => {
    const env = userEnv(
      fakeContext({
        AUDITBENCH_TRAFFIC: 'traffic.json',
        AUDITBENCH_PLUGIN_DIR: '/opt/plugins',
        AUDITBENCH_MYSQLD: 'mariadbd',
      }),
    );
    expect(env).toMatchObject({
      AUDITBENCH_CONFIG: '/home/dba/ops/auditbench.config.ts',
      AUDITBENCH_REPORT_DIR: '/home/dba/ops/reports',
      AUDITBENCH_TRAFFIC: '/home/dba/ops/traffic.json',
      AUDITBENCH_PLUGIN_DIR: '/opt/plugins',
      AUDITBENCH_MYSQLD: 'mariadbd',
    });
  });

  test('a server binary given by a relative path is resolved too', () => {
    expect(userEnv(fakeContext({ AUDITBENCH_MYSQLD: 'bin/mariadbd' })).AUDITBENCH_MYSQLD).toBe(
      '/home/dba/ops/bin/mariadbd',
    );
  });
});
