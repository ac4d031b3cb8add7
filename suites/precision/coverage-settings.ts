// bench:coverage's own settings; a bad value stops the script before any server starts, naming it.
import { z } from 'zod';
import { read, someOf, wholeNumber } from '../../src/config/env.ts';

export const loadConditions = ['quiet', 'load', 'steps'] as const;
export type LoadCondition = (typeof loadConditions)[number];
export const coverageDesigns = ['own', 'dropped', 'aligned'] as const;
export type CoverageDesign = (typeof coverageDesigns)[number];
export const coverageBlocks = ['adaptive', 'one'] as const;

export interface CoverageSettings {
  /** Runs per condition and design (AUDITBENCH_COVERAGE_RUNS, default 20). */
  runs: number;
  /** AUDITBENCH_COVERAGE_CONDITIONS, default all three: no added load, a steady one, one switched mid-run. */
  conditions: LoadCondition[];
  /** Memory-bound processes in the background load (AUDITBENCH_COVERAGE_LOAD_PROCESSES, default 1). */
  loadProcesses: number;
  /**
   * AUDITBENCH_COVERAGE_DESIGN: the workload's own toggle design ('own', the default), 'dropped' (3 s segments,
   * each switch's second dropped: every workload's design before issue 25) or 'aligned' (2 s segments switched on
   * sysbench's report boundaries), in the same seconds per block (src/workload/aligned-design.ts). Several alternate
   * inside each run, so that they are compared in the same minutes.
   */
  designs: CoverageDesign[];
  /**
   * AUDITBENCH_COVERAGE_BLOCKS: 'adaptive' (the default) lets the SQL_ERROR_LOG gate add blocks as a gate does;
   * 'one' measures one block, as the A/A does, so every interval covers the same seconds.
   */
  blocks: (typeof coverageBlocks)[number];
}

/** Read with src/config/env.ts's parser, so the errors read like every other setting's. */
export function coverageSettings(env: Record<string, string | undefined>): CoverageSettings {
  return {
    runs: read(env, 'AUDITBENCH_COVERAGE_RUNS', wholeNumber(1, 200), 20),
    conditions: read(env, 'AUDITBENCH_COVERAGE_CONDITIONS', someOf(loadConditions), [...loadConditions]),
    loadProcesses: read(env, 'AUDITBENCH_COVERAGE_LOAD_PROCESSES', wholeNumber(1, 8), 1),
    designs: read(env, 'AUDITBENCH_COVERAGE_DESIGN', someOf(coverageDesigns), ['own' as const]),
    blocks: read(
      env,
      'AUDITBENCH_COVERAGE_BLOCKS',
      { schema: z.enum(coverageBlocks), expects: `must be one of ${coverageBlocks.join(', ')}` },
      'adaptive',
    ),
  };
}
