// The gate command hands its comparisons to suites/gate.suite.ts in a JSON file (AUDITBENCH_GATE_PLAN), and the
// suite hands each verdict back in a JSON-lines file beside it, so the command can print them at the end.
import { appendFile, readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Ci95Pct } from '../stats/paired-overhead.ts';
import type { BaseTree } from './base-paths.ts';
import type { GateItem } from './plan.ts';
import type { BaseHeadVerdict } from './verdict.ts';

export type Comparison = Extract<GateItem, { kind: 'compare' }>;

export interface GatePlanFile {
  /** The head's configuration file and the base's, in a checkout that lives until the suite ends. */
  headConfig: string;
  baseConfig: string;
  /** Where the base's `cnf` and `traffic.script` are read (null: the base is the head's configuration). */
  baseTree: BaseTree | null;
  baseRef: string;
  maxRegressionPp: number;
  /** The configuration's `maxCountedRisePp` and `inconclusive`, which the comparison's verdict goes by. */
  maxCountedRisePp: number;
  inconclusive: 'fail' | 'pass';
  comparisons: Comparison[];
  verdictsFile: string;
}

const comparison = z.object({
  kind: z.literal('compare'),
  runId: z.string(),
  because: z.string(),
  design: z.enum(['toggle', 'reconnect', 'restarts']),
  why: z.string(),
  differences: z.array(z.string()),
});
const planSchema = z.object({
  headConfig: z.string().min(1),
  baseConfig: z.string().min(1),
  baseTree: z.object({ headRoot: z.string().min(1), baseRoot: z.string().min(1) }).nullable(),
  baseRef: z.string().min(1),
  maxRegressionPp: z.number().gt(0),
  maxCountedRisePp: z.number().gt(0),
  inconclusive: z.enum(['fail', 'pass']),
  comparisons: z.array(comparison),
  verdictsFile: z.string().min(1),
});

export async function readGatePlan(file: string | undefined): Promise<GatePlanFile> {
  if (!file) {
    throw new Error(
      'AUDITBENCH_GATE_PLAN is not set: suites/gate.suite.ts measures what `auditbench gate` selected; run that instead',
    );
  }
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `AUDITBENCH_GATE_PLAN: cannot read ${file} (${error.code ?? error.message}); run auditbench gate`,
    );
  });
  return planSchema.parse(JSON.parse(text));
}

export interface RecordedVerdict extends BaseHeadVerdict {
  runId: string;
  design: Comparison['design'];
  /** Why that design, naming the options, as the server classified them once the plugin was installed. */
  designWhy?: string;
  pairs: number;
  /** The interval from this run's own pairs, the workload's τ left out; null where τ is 0 (it is then ci95). */
  withinRunCi95?: Ci95Pct | null;
}

export const recordVerdict = (file: string, verdict: RecordedVerdict): Promise<void> =>
  appendFile(file, `${JSON.stringify(verdict)}\n`);

export async function readVerdicts(file: string): Promise<RecordedVerdict[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordedVerdict);
}
