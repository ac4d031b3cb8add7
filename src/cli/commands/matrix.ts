import path from 'node:path';
import { parseMatrixSelection } from '../../config/matrix-selection.ts';
import { parseOwnArgs, refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { userEnv } from '../user-paths.ts';
import { runVitest, setupAndRunVitest } from '../vitest-run.ts';

export const summary =
  'every plugin × server cell of the compatibility matrix (the nightly job), smoke workload';

// Every image scripts/docker/build-images.sh knows how to build.
export const allImages =
  'auditbench/mariadb:10.5,auditbench/mariadb:10.11,auditbench/mariadb:11.8,auditbench/mysql:9.7';

export const usage = `usage: auditbench matrix [--shard <i>/<n>] [--merge-reports <dir>]

Measures every crossed plugin on the local server and on each image of AUDITBENCH_IMAGES (default: the four
Debian-built images, ${allImages.split(',').length} of them), the smoke workload unless AUDITBENCH_WORKLOAD is set, and writes the table to
the reports (AUDITBENCH_REPORT_DIR, default ./reports). Setup (scripts/setup.sh) installs or starts Docker
and builds the images first only in CI, as root on Debian, or with AUDITBENCH_DOCKER=1 (or
AUDITBENCH_TARGET=container); elsewhere an image that is not built has its cells 'unavailable', each
failing with the reason, and AUDITBENCH_DOCKER=0 skips them.
\`auditbench test\` measures a sample of these cells; this is the whole table.

  --shard <i>/<n>        measure every n-th cell from the i-th (one job of a CI job matrix) and write its
                         results as a Vitest blob to <reports>/matrix-shards/
  --merge-reports <dir>  no measuring: merge the shards' blobs in <dir> into one report (results.json,
                         summary.md, index.html), as one unsharded run writes it
  -h, --help             this text

In CI: n jobs run \`auditbench matrix --shard \${i}/n\` and upload reports/matrix-shards/; a last job
downloads them into one folder and runs \`auditbench matrix --merge-reports <that folder>\`: the report holds
every shard's cells. Give every job the same commit, AUDITBENCH_IMAGES and AUDITBENCH_WORKLOAD.
`;

const options = {
  shard: { type: 'string' },
  'merge-reports': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type MatrixArgs =
  | { ok: true; help: boolean; merge?: string; shard?: string }
  | { ok: false; problem: string };

/** The options, their combination and the shard's form: everything `run` refuses before setup. */
function parseMatrixArgs(argv: string[]): MatrixArgs {
  const parsed = parseOwnArgs(argv, options);
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  if (values.help) return { ok: true, help: true };
  const merge = values['merge-reports'];
  if (merge !== undefined && values.shard !== undefined)
    return { ok: false, problem: '--shard and --merge-reports are two steps: give one' };
  if (merge !== undefined) {
    if (!merge.trim()) return { ok: false, problem: '--merge-reports needs the folder holding the shards' };
    return { ok: true, help: false, merge };
  }
  if (values.shard === undefined) return { ok: true, help: false };
  try {
    if (parseMatrixSelection(values.shard).kind !== 'shard') throw new Error('not a shard');
  } catch {
    return { ok: false, problem: `--shard must be <i>/<n> with 1 ≤ i ≤ n, e.g. 2/3; got '${values.shard}'` };
  }
  return { ok: true, help: false, shard: values.shard };
}

/** What `run` refuses before setup. */
export async function check(argv: string[]): Promise<string | null> {
  const parsed = parseMatrixArgs(argv);
  return parsed.ok ? null : parsed.problem;
}

export async function run(argv: string[], context: CliContext): Promise<number> {
  const parsed = parseMatrixArgs(argv);
  if (!parsed.ok) return refuse(context, 'matrix', parsed.problem);
  if (parsed.help) {
    context.stdout(usage);
    return 0;
  }
  const { merge, shard } = parsed;
  if (merge !== undefined)
    return runVitest(['--merge-reports', path.resolve(context.userDir, merge)], context, {});
  const vitestArgs = ['--project', 'suites', 'suites/matrix.suite.ts'];
  if (shard !== undefined) {
    const reportDir = userEnv(context).AUDITBENCH_REPORT_DIR ?? path.resolve(context.userDir, 'reports');
    const blob = path.join(reportDir, 'matrix-shards', `shard-${shard.replace('/', '-of-')}.json`);
    vitestArgs.push(
      '--reporter=default',
      '--reporter=./reporters/progress-reporter.ts',
      '--reporter=blob',
      `--outputFile.blob=${blob}`,
    );
  }
  return setupAndRunVitest('matrix', vitestArgs, context, {
    AUDITBENCH_MATRIX: shard ?? 'all',
    AUDITBENCH_IMAGES: context.env.AUDITBENCH_IMAGES || allImages,
    AUDITBENCH_WORKLOAD: context.env.AUDITBENCH_WORKLOAD || 'smoke',
  });
}
