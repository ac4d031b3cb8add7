// bench:coverage's own settings, in AUDITBENCH_STUDY; a bad value stops the study before any server starts, naming it.
import { z } from 'zod';
import { someOf, wholeNumber } from '../../src/config/env.ts';
import { studyOptions } from './study-options.ts';

export const loadConditions = ['quiet', 'load', 'steps'] as const;
export type LoadCondition = (typeof loadConditions)[number];
export const coverageDesigns = ['own', 'dropped', 'aligned'] as const;
export type CoverageDesign = (typeof coverageDesigns)[number];
export const coverageBlocks = ['adaptive', 'one'] as const;

export interface CoverageSettings {
  /** Runs per condition and design (`runs=`, default 20). */
  runs: number;
  /** `conditions=`, default all three: no added load, a steady one, one switched mid-run. */
  conditions: LoadCondition[];
  /** Memory-bound processes in the background load (`load-processes=`, default 1). */
  loadProcesses: number;
  /**
   * `designs=`: the workload's own toggle design ('own', the default), 'dropped' (3 s segments,
   * each switch's second dropped: every workload's design before issue 25) or 'aligned' (2 s segments switched on
   * sysbench's report boundaries), in the same seconds per block (src/workload/aligned-design.ts). Several alternate
   * inside each run, so that they are compared in the same minutes.
   */
  designs: CoverageDesign[];
  /**
   * `blocks=`: 'adaptive' (the default) lets the SQL_ERROR_LOG gate add blocks as a gate does;
   * 'one' measures one block, as the A/A does, so every interval covers the same seconds.
   */
  blocks: (typeof coverageBlocks)[number];
}

/** AUDITBENCH_STUDY='runs=20 conditions=quiet,load load-processes=1 designs=own,aligned blocks=one'. */
export function coverageSettings(env: Record<string, string | undefined>): CoverageSettings {
  const option = studyOptions(env, ['runs', 'conditions', 'load-processes', 'designs', 'blocks']);
  return {
    runs: option('runs', wholeNumber(1, 200), 20),
    conditions: option('conditions', someOf(loadConditions), [...loadConditions]),
    loadProcesses: option('load-processes', wholeNumber(1, 8), 1),
    designs: option('designs', someOf(coverageDesigns), ['own' as const]),
    blocks: option(
      'blocks',
      { schema: z.enum(coverageBlocks), expects: `must be one of ${coverageBlocks.join(', ')}` },
      'adaptive',
    ),
  };
}
