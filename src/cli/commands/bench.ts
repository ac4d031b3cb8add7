import { refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { vitestArgsProblem } from '../vitest-args.ts';
import { setupAndRunVitest, splitVitestArgs } from '../vitest-run.ts';

/** The suite that measures the configuration's runs: all that `bench` runs. */
export const BENCH_SUITE = 'suites/runs.suite.ts';

/** The workload `bench` measures on: AUDITBENCH_WORKLOAD, else standard. `list` describes runs on it too. */
export const benchWorkload = (env: CliContext['env']): string => env.AUDITBENCH_WORKLOAD || 'standard';

export const summary = 'measure every run of your configuration (suites/runs.suite.ts), standard workload';

export const usage = `usage: auditbench bench [vitest args]

Measures every run your configuration declares (auditbench.config.ts where you run the command, or
AUDITBENCH_CONFIG), on the standard workload unless AUDITBENCH_WORKLOAD is set. Installs what is missing
first (scripts/setup.sh). Reports go to AUDITBENCH_REPORT_DIR (default ./reports).

  -h, --help   this text
  [vitest args]  passed to Vitest as given, e.g. -t server_audit; after -- too (-- --help: Vitest's help)

Examples:
  auditbench bench
  AUDITBENCH_WORKLOAD=smoke AUDITBENCH_RUNS=connect-only auditbench bench
`;

/** What `run` refuses before setup: Vitest's own parser on the arguments passed through; `--help` is always fine. */
export async function check(argv: string[]): Promise<string | null> {
  const { help, vitest } = splitVitestArgs(argv);
  return help ? null : vitestArgsProblem(vitest);
}

export async function run(argv: string[], context: CliContext): Promise<number> {
  const { help, vitest } = splitVitestArgs(argv);
  if (help) {
    context.stdout(usage);
    return 0;
  }
  // Before setup: a typo must not cost an npm ci and an apt pass first.
  const problem = await check(argv);
  if (problem) return refuse(context, 'bench', problem);
  // The configured runs only (suites/runs.suite.ts): the matrix, completeness, faults and the harness's own checks
  // are part of `test`.
  return setupAndRunVitest('bench', ['--project', 'suites', BENCH_SUITE, ...vitest], context, {
    // The runs suite leaves out the example sweep `test` adds.
    AUDITBENCH_PLUGINS_ONLY: '1',
    AUDITBENCH_WORKLOAD: benchWorkload(context.env),
  });
}
