import { refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { vitestArgsProblem } from '../vitest-args.ts';
import { setupAndRunVitest, splitVitestArgs } from '../vitest-run.ts';

export const summary = 'unit tests, plugin suites, targets and a sample of the matrix, quick workload';

// The matrix's sample needs one image of each flavor (`auditbench matrix` measures all four).
const defaultImages = 'auditbench/mariadb:10.11,auditbench/mysql:9.7';

export const usage = `usage: auditbench test [vitest args]

Runs everything: unit tests, the plugin suites, the server targets and a sample of the compatibility
matrix (one cell per kind of server, and the pairs the project claims fail; \`auditbench matrix\` measures
every cell), on the quick workload unless AUDITBENCH_WORKLOAD is set: short blocks that check every part
works, not figures to keep. Installs what is missing first (scripts/setup.sh). AUDITBENCH_DOCKER=0 skips
the containers.

  -h, --help   this text
  [vitest args]  passed to Vitest as given, e.g. --project unit; after -- too (-- --help: Vitest's help)
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
  if (problem) return refuse(context, 'test', problem);
  return setupAndRunVitest('test', vitest, context, {
    AUDITBENCH_IMAGES: context.env.AUDITBENCH_IMAGES || defaultImages,
    AUDITBENCH_WORKLOAD: context.env.AUDITBENCH_WORKLOAD || 'quick',
    // suites/counted.suite.ts checks the counted channel; the runs suite does not count every run again.
    AUDITBENCH_COUNTED: context.env.AUDITBENCH_COUNTED || 'off',
  });
}
