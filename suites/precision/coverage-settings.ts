// bench:coverage's own settings; a bad value stops the script before any server starts, naming it.
export const loadConditions = ['quiet', 'load', 'steps'] as const;
export type LoadCondition = (typeof loadConditions)[number];

export interface CoverageSettings {
  /** Runs per condition and design (AUDITBENCH_COVERAGE_RUNS, default 20). */
  runs: number;
  /** AUDITBENCH_COVERAGE_CONDITIONS, default all three: no added load, a steady one, one switched mid-run. */
  conditions: LoadCondition[];
  /** Memory-bound processes in the background load (AUDITBENCH_COVERAGE_LOAD_PROCESSES, default 1). */
  loadProcesses: number;
}

function count(env: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}; got '${raw}'`);
  }
  return value;
}

export function coverageSettings(env: Record<string, string | undefined>): CoverageSettings {
  const rawConditions = env.AUDITBENCH_COVERAGE_CONDITIONS;
  const conditions = (rawConditions ?? loadConditions.join(',')).split(',').map((c) => c.trim());
  const bad = conditions.find((c) => !(loadConditions as readonly string[]).includes(c));
  if (bad !== undefined || conditions.length === 0) {
    throw new Error(
      `AUDITBENCH_COVERAGE_CONDITIONS must be a comma-separated list of ${loadConditions.join(', ')}; got '${rawConditions}'`,
    );
  }
  return {
    runs: count(env, 'AUDITBENCH_COVERAGE_RUNS', 20, 200),
    conditions: [...new Set(conditions)] as LoadCondition[],
    loadProcesses: count(env, 'AUDITBENCH_COVERAGE_LOAD_PROCESSES', 1, 8),
  };
}
