import { z } from 'zod';
import { type InterferencePolicy, interferencePolicies } from './interference-policy.ts';

/**
 * What a doubtful measurement does to its run, set in auditbench.config.ts (top level, or a run's own): an interval
 * straddling the limit (`inconclusive`), a plugin that logged none of the traffic (`idle`), a result taken while
 * other processes used the CPUs (`interference`).
 */
export interface RunPolicy {
  inconclusive: 'fail' | 'pass';
  idle: 'fail' | 'pass';
  interference: InterferencePolicy;
}

export const defaultRunPolicy: RunPolicy = { inconclusive: 'fail', idle: 'fail', interference: 'warn' };

/** The fields given, and the defaults for the rest. */
export const runPolicyOf = (given: Partial<RunPolicy>): RunPolicy => ({
  inconclusive: given.inconclusive ?? defaultRunPolicy.inconclusive,
  idle: given.idle ?? defaultRunPolicy.idle,
  interference: given.interference ?? defaultRunPolicy.interference,
});

/** How the history judges this invocation's entries against the base branch's (top level of auditbench.config.ts only). */
export interface HistoryPolicy {
  /** Largest allowed rise of a run's overhead over the base branch, in percentage points; null gates nothing. */
  maxRegressionPp: number | null;
  /**
   * Largest allowed rise of the instructions a plugin adds per transaction (counted channel) over the base branch's
   * entry of the same identity, in points of plugin-off instructions; gated, on any machine, while maxRegressionPp is.
   */
  maxCountedRisePp: number;
}

export const defaultHistoryPolicy: HistoryPolicy = { maxRegressionPp: null, maxCountedRisePp: 1 };

const failOrPass = z.enum(['fail', 'pass'], { error: "must be 'fail' or 'pass'" });
const points = (example: number) =>
  z
    .number({ error: `must be a number of percentage points above 0 and at most 100, e.g. ${example}` })
    .gt(0, { error: `must be a number of percentage points above 0 and at most 100, e.g. ${example}` })
    .max(100, { error: `must be a number of percentage points above 0 and at most 100, e.g. ${example}` });

/** The policy fields as auditbench.config.ts gives them, at the top level and (the run's part) in a run. */
export const runPolicySchema = {
  inconclusive: failOrPass.optional(),
  idle: failOrPass.optional(),
  interference: z
    .enum(interferencePolicies, {
      error: `must be one of ${interferencePolicies.map((p) => `'${p}'`).join(', ')} (warn marks the result, fail fails it, retry re-measures a disturbed block once the machine is quiet)`,
    })
    .optional(),
};
export const historyPolicySchema = {
  maxRegressionPp: points(5).optional(),
  maxCountedRisePp: points(1).optional(),
};

const inFile = (field: string) => `set ${field} in auditbench.config.ts instead`;

/**
 * Variables no longer read, each with what replaced it: policy moved into auditbench.config.ts, the studies' options
 * into AUDITBENCH_STUDY, scripts' knobs into their arguments or fixed values. Written without the AUDITBENCH_ prefix:
 * nothing reads them; the environment only refuses them.
 */
export const retiredVariables: Record<string, string> = {
  THREADS: inFile('`threads` (top level or a run)'),
  CORES: inFile('`cores` (top level or a run)'),
  MAX_OVERHEAD_PCT: inFile('`maxOverheadPct` (top level or a run)'),
  INCONCLUSIVE: inFile("`inconclusive: 'pass'` (top level or a run)"),
  IDLE: inFile("`idle: 'pass'` (top level or a run)"),
  INTERFERENCE: inFile('`interference` (top level or a run)'),
  TRAFFIC: inFile('`traffic` (top level)'),
  MAX_COUNTED_RISE_PP: inFile('`maxCountedRisePp` (top level)'),
  PRECISION: 'set AUDITBENCH_STUDY (even empty) instead',
  PRECISION_RUNS: "set AUDITBENCH_STUDY='runs=N' instead",
  PRECISION_AA_RUNS: "set AUDITBENCH_STUDY='aa-runs=N' instead",
  COVERAGE_RUNS: "set AUDITBENCH_STUDY='runs=N' instead",
  COVERAGE_CONDITIONS: "set AUDITBENCH_STUDY='conditions=…' instead",
  COVERAGE_LOAD_PROCESSES: "set AUDITBENCH_STUDY='load-processes=N' instead",
  COVERAGE_DESIGN: "set AUDITBENCH_STUDY='designs=…' instead",
  COVERAGE_BLOCKS: "set AUDITBENCH_STUDY='blocks=…' instead",
  NODE_LINES: 'give the majors as arguments instead (scripts/node-lines.sh 24)',
  IMAGE_SUITES:
    "give IMAGE=SUITE as an argument instead (scripts/docker/build-images.sh 'auditbench/mariadb:11.4=trixie')",
  RECORD_LOG: 'give --record-log FILE to scripts/plugins/mcafee-log-volume.sh instead',
  UNINSTALL: 'give --uninstall to scripts/plugins/mcafee-log-volume.sh instead',
  DOCKERD_LOG: 'setup always logs Docker to /var/log/auditbench-dockerd.log',
  DOCKERD_WAIT_S: 'setup always waits up to 60 s for Docker',
  IMAGE_CHECK_WAIT_S: 'a built image always gets 120 s to accept connections',
};

/** One line for the first retired variable that is still set, or null. */
export function retiredVariableProblem(env: Record<string, string | undefined>): string | null {
  for (const [name, instead] of Object.entries(retiredVariables)) {
    const variable = `AUDITBENCH_${name}`;
    if (env[variable] === undefined) continue;
    return `${variable} is no longer read: ${instead}; unset it (got '${env[variable]}')`;
  }
  return null;
}

export type { InterferencePolicy };

/**
 * The policy a verdict on `workload` goes by. Quick is the workload that checks the parts work (`./auditbench test`):
 * its intervals are wide, so one that straddles a limit says nothing and passes; a verdict wholly above it fails.
 * Not the gate's: an undecided gate fails on every workload unless told otherwise (gateInconclusive in the gate command).
 */
export const policyOn = (workload: string, policy: RunPolicy): RunPolicy =>
  workload === 'quick' ? { ...policy, inconclusive: 'pass' } : policy;
