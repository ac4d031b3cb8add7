import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { defaultBranchRef } from '../gate/repo.ts';
import type { CliContext } from './context.ts';
import { userEnv } from './user-paths.ts';

/**
 * Splits a bench/test command line: `--help` before any `--` is ours, everything else goes to Vitest as given
 * (a `--` separator is dropped, so `auditbench test -- --help` shows Vitest's help).
 */
export function splitVitestArgs(argv: string[]): { help: boolean; vitest: string[] } {
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  const { values } = parseArgs({
    args: own,
    options: { help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
  });
  const passed = own.filter((arg) => arg !== '--help' && arg !== '-h');
  return { help: values.help === true, vitest: end === -1 ? passed : [...passed, ...argv.slice(end + 1)] };
}

const signalNumbers: Partial<Record<string, number>> = constants.signals;

/** Environment both commands set: no Ryuk (its image needs a registry), published ports on localhost. */
function harnessEnv(context: CliContext): Record<string, string | undefined> {
  const env = userEnv(context);
  env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  env.TESTCONTAINERS_HOST_OVERRIDE ??= 'localhost';
  return env;
}

/** Installs what is missing (scripts/setup.sh), then runs Vitest in the package. */
export async function setupAndRunVitest(
  setupFor: 'bench' | 'test' | 'matrix',
  vitestArgs: string[],
  context: CliContext,
  extraEnv: Record<string, string>,
): Promise<number> {
  const env = { ...harnessEnv(context), ...extraEnv };
  const setup = await execa('scripts/setup.sh', [setupFor], {
    cwd: context.packageDir,
    env,
    extendEnv: false,
    reject: false,
    stdio: 'inherit',
  });
  if (setup.exitCode !== 0) return setup.exitCode ?? 1;
  return runVitest(vitestArgs, context, extraEnv);
}

/** Runs Vitest in the package with the harness's environment; nothing is installed first. */
export async function runVitest(
  vitestArgs: string[],
  context: CliContext,
  extraEnv: Record<string, string>,
): Promise<number> {
  const env = { ...harnessEnv(context), ...extraEnv };
  const inPackage = { cwd: context.packageDir, env, extendEnv: false, reject: false } as const;
  // History is compared with the user's default branch, found as the gate finds it: a repository on master has no
  // runs on main, and would otherwise never get a base. A default, not AUDITBENCH_BASE_REF itself: a gate run in
  // another repository from inside this one (the suites do) finds its own.
  const base = await defaultBranchRef(context.userDir);
  if (base !== null) env.AUDITBENCH_DEFAULT_BASE_REF = base;
  else delete env.AUDITBENCH_DEFAULT_BASE_REF;
  const vitest = execa('vitest', ['run', ...vitestArgs], {
    ...inPackage,
    preferLocal: true,
    stdio: 'inherit',
  });
  // A CI timeout or kill stops this process; Vitest must hear it too, to stop its servers and write its reports.
  // Ctrl-C reaches Vitest by itself (same process group): this process only waits for it.
  const forward = (signal: NodeJS.Signals) => vitest.kill(signal);
  const wait = () => {};
  process.on('SIGTERM', forward).on('SIGHUP', forward).on('SIGINT', wait);
  try {
    const result = await vitest;
    return result.exitCode ?? (result.signal ? 128 + (signalNumbers[result.signal] ?? 0) : 1);
  } finally {
    process.off('SIGTERM', forward).off('SIGHUP', forward).off('SIGINT', wait);
  }
}
