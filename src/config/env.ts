import { z } from 'zod';

/** Validated settings. Nothing else in src/ reads process.env. */
export interface Config {
  workload: 'smoke' | 'standard' | 'seed';
  /** Server binary to run for the local target; null means search PATH. */
  mysqldPath: string | null;
  /** Overrides each profile's own limit when set. */
  maxOverheadPct: number | null;
  reportDir: string;
  /** Folder with plugin libraries to try besides the server's own (AUDITBENCH_PLUGIN_DIR). */
  pluginDir: string | null;
  /** What an inconclusive verdict does to the gate: fail (default, the safe side) or pass. */
  inconclusive: 'fail' | 'pass';
  /** bench:precision: overhead measurements and A/A runs to repeat. */
  precisionRuns: { overhead: number; aa: number };
  /** PATH, where the server binary and sysbench are searched. */
  searchPath: string;
}

const workloadNames = ['smoke', 'standard', 'seed'] as const;

type Env = Record<string, string | undefined>;

/** A variable's schema and the advice shown when a value fails it. */
interface Field<T> {
  schema: z.ZodType<T, string>;
  expects: string;
}

const fields = {
  workload: { schema: z.enum(workloadNames), expects: `must be one of ${workloadNames.join(', ')}` },
  percent: {
    schema: z.string().trim().min(1).transform(Number).pipe(z.number().gt(0).lt(100)),
    expects: 'must be a number above 0 and below 100, e.g. 30',
  },
  inconclusive: { schema: z.enum(['fail', 'pass']), expects: 'must be fail or pass' },
  count: {
    schema: z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(100)),
    expects: 'must be a whole number from 1 to 100',
  },
  nonEmpty: { schema: z.string().trim().min(1), expects: 'must not be empty' },
} satisfies Record<string, Field<unknown>>;

/** Reads one variable; a bad value becomes a one-line error naming the variable, the value and what to use. */
function read<T, F>(env: Env, name: string, field: Field<T>, fallback: F): T | F {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const parsed = field.schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${name} ${field.expects}; got '${raw}'`);
  return parsed.data;
}

export function loadConfig(env: Env = process.env): Config {
  return {
    workload: read(env, 'AUDITBENCH_WORKLOAD', fields.workload, 'smoke'),
    mysqldPath: read(env, 'AUDITBENCH_MYSQLD', fields.nonEmpty, null),
    maxOverheadPct: read(env, 'AUDITBENCH_MAX_OVERHEAD_PCT', fields.percent, null),
    reportDir: read(env, 'AUDITBENCH_REPORT_DIR', fields.nonEmpty, 'reports'),
    pluginDir: read(env, 'AUDITBENCH_PLUGIN_DIR', fields.nonEmpty, null),
    inconclusive: read(env, 'AUDITBENCH_INCONCLUSIVE', fields.inconclusive, 'fail'),
    precisionRuns: {
      overhead: read(env, 'AUDITBENCH_PRECISION_RUNS', fields.count, 5),
      aa: read(env, 'AUDITBENCH_PRECISION_AA_RUNS', fields.count, 10),
    },
    searchPath: env.PATH ?? '',
  };
}
