import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CliContext } from './context.ts';
import { main } from './main.ts';
import { userEnv } from './user-paths.ts';
import * as vitestRun from './vitest-run.ts';
import { splitVitestArgs } from './vitest-run.ts';

// Nothing here may install or start anything: a command line that got past its checks stops at these. Spies, not
// vi.mock: the unit project shares modules between files (isolate: false), where a module mock can come too late.
beforeEach(() => {
  vi.spyOn(vitestRun, 'setupAndRunVitest').mockImplementation(async () => 0);
  vi.spyOn(vitestRun, 'runVitest').mockImplementation(async () => 0);
});
afterEach(() => {
  vi.restoreAllMocks();
});

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

  test('an unknown command, a near miss and no command at all exit 2', async () => {
    const unknown = fakeContext();
    expect(await main(['frobnicate'], unknown)).toBe(2);
    expect(unknown.err.join('')).toBe(
      "auditbench: unknown command 'frobnicate', not one of bench, test, gate, matrix, list, history, action; see auditbench --help\n",
    );
    const near = fakeContext();
    expect(await main(['bnech'], near)).toBe(2);
    expect(near.err.join('')).toContain("unknown command 'bnech' (did you mean bench?)");
    const none = fakeContext();
    expect(await main([], none)).toBe(2);
    expect(none.err.join('')).toContain('usage: auditbench <command>');
  });
});

// One voice for bad command lines (issue 39): `auditbench: <what>; see auditbench [<command> ]--help`, one line,
// exit 2, and nothing started: not setup (npm ci, apt), not Vitest, not git.
describe('bad command lines', () => {
  test.for([
    [['--colour'], null, "unknown option '--colour'"],
    [
      ['help', 'nonsense'],
      null,
      "help: no command 'nonsense', not one of bench, test, gate, matrix, list, history, action",
    ],
    [['help', 'lsit'], null, "help: no command 'lsit' (did you mean list?)"],
    [['help', 'list', 'extra'], null, "help takes one command, got 'extra' after 'list'"],
    [['list', '--bogus'], 'list', "unknown option '--bogus'"],
    [['list', '--jsn'], 'list', "unknown option '--jsn' (did you mean --json?)"],
    [['list', '--json=yes'], 'list', '--json takes no value'],
    [['list', '--config'], 'list', '--config needs a value'],
    [['list', '--config', ''], 'list', '--config was given an empty value: give one, or leave --config out'],
    [['list', 'runs'], 'list', "unexpected argument 'runs' (this command takes options only)"],
    [
      ['gate', 'main'],
      'gate',
      "unexpected argument 'main' (the base branch is --base <ref>; Vitest's arguments go after --)",
    ],
    [['gate', '--bogus'], 'gate', "unknown option '--bogus'"],
    [['gate', '--lst'], 'gate', "unknown option '--lst' (did you mean --list?)"],
    [['gate', '--base'], 'gate', '--base needs a value'],
    [['gate', '--base', ''], 'gate', '--base was given an empty value: give one, or leave --base out'],
    [['gate', '--base=', '--list'], 'gate', '--base was given an empty value: give one, or leave --base out'],
    [['gate', '--', '--bogus'], 'gate', "unknown option '--bogus'"],
    [['matrix', '--bogus'], 'matrix', "unknown option '--bogus'"],
    [['matrix', 'now'], 'matrix', "unexpected argument 'now' (this command takes options only)"],
    [['matrix', '--shard', '4/3'], 'matrix', "--shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/3; got '4/3'"],
    [['matrix', '--shard', ''], 'matrix', '--shard was given an empty value: give one, or leave --shard out'],
    [['matrix', '--shard', 'all'], 'matrix', "--shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/3; got 'all'"],
    [
      ['matrix', '--shard', '1/2', '--merge-reports', 'blobs'],
      'matrix',
      '--shard and --merge-reports are two steps: give one',
    ],
    [['bench', '--bogus'], 'bench', "unknown option '--bogus'"],
    [['bench', '--projet', 'suites'], 'bench', "unknown option '--projet' (did you mean --project?)"],
    [['bench', '--', '--no-colr'], 'bench', "unknown option '--no-colr' (did you mean --color?)"],
    [['bench', '--shard'], 'bench', '--shard needs a value'],
    [['test', '--bogus'], 'test', "unknown option '--bogus'"],
    [['test', '-x'], 'test', "unknown option '-x'"],
  ] as const)('%j: one line, exit 2, nothing started', async ([argv, command, what]) => {
    const context = fakeContext();
    expect(await main([...argv], context)).toBe(2);
    expect(context.err.join('')).toBe(
      `auditbench: ${what}; see auditbench ${command ? `${command} ` : ''}--help\n`,
    );
    expect(context.out).toEqual([]);
    expect(vitestRun.setupAndRunVitest).not.toHaveBeenCalled();
    expect(vitestRun.runVitest).not.toHaveBeenCalled();
  });

  test('arguments Vitest takes still reach it, after setup', async () => {
    const context = fakeContext();
    const argv = [
      '-t',
      'server_audit',
      '--reporter=blob',
      '--outputFile.blob=b.json',
      '--no-color',
      '--bail',
      '1',
    ];
    expect(await main(['bench', ...argv], context)).toBe(0);
    expect(vitestRun.setupAndRunVitest).toHaveBeenCalledWith(
      'bench',
      ['--project', 'suites', 'suites/runs.suite.ts', ...argv],
      context,
      expect.anything(),
    );
    expect(context.err).toEqual([]);
  });
});

describe('splitVitestArgs', () => {
  test.for([
    [[], false, []],
    [['-t', 'server_audit'], false, ['-t', 'server_audit']],
    [['--project', 'unit', '--help'], true, ['--project', 'unit']],
    [['--', '--help'], false, ['--help']],
    [['suites/runs.suite.ts', '--', '-t', 'x'], false, ['suites/runs.suite.ts', '-t', 'x']],
  ] as const)('%j: help %s, vitest gets %j', ([argv, help, vitest]) => {
    expect(splitVitestArgs([...argv])).toEqual({ help, vitest });
  });
});

describe('userEnv', () => {
  test('path settings are the user’s, relative to where the command runs, defaults included', () => {
    const env = userEnv(
      fakeContext({
        AUDITBENCH_PLUGIN_DIR: 'plugins',
        AUDITBENCH_MYSQLD: 'mariadbd',
      }),
    );
    expect(env).toMatchObject({
      AUDITBENCH_CONFIG: '/home/dba/ops/auditbench.config.ts',
      AUDITBENCH_REPORT_DIR: '/home/dba/ops/reports',
      AUDITBENCH_PLUGIN_DIR: '/home/dba/ops/plugins',
      AUDITBENCH_MYSQLD: 'mariadbd',
    });
  });

  test('a server binary given by a relative path is resolved too', () => {
    expect(userEnv(fakeContext({ AUDITBENCH_MYSQLD: 'bin/mariadbd' })).AUDITBENCH_MYSQLD).toBe(
      '/home/dba/ops/bin/mariadbd',
    );
  });
});
