import type { Workload } from './workload.ts';

/** The aligned design's segment length: in the replay of the recorded traces 1 s segments covered 0 too seldom. */
export const ALIGNED_SEGMENT_S = 2;
/** The design every toggled workload used before issue 25: 3 s segments, each switch's second dropped. */
export const DROPPED_SEGMENT_S = 3;

/**
 * A toggled workload re-cut into segments of `segmentS`, keeping the seconds a block measures and the most a
 * measurement may take. Throws for a workload that does not toggle.
 */
function resegmented(workload: Workload, segmentS: number, aligned: boolean): Workload {
  const { design } = workload;
  if (design.kind !== 'toggle') throw new Error(`Workload '${workload.name}' does not toggle`);
  const scaled = (pairs: number) => Math.max(2, Math.floor((pairs * design.segmentS) / segmentS));
  return {
    ...workload,
    design: aligned ? { kind: 'toggle', segmentS, aligned: true } : { kind: 'toggle', segmentS },
    pairs: scaled(workload.pairs),
    maxPairs: scaled(workload.maxPairs),
  };
}

/**
 * The workload in the aligned design (Design.aligned, issue 25): switches land on sysbench's report boundaries, so no
 * second is dropped, in 2 s segments. 8 pairs of 3 s (48 s a block, at most 24 pairs) become 12 pairs of 2 s
 * (at most 36).
 */
export function alignedWorkload(workload: Workload, segmentS: number = ALIGNED_SEGMENT_S): Workload {
  return resegmented(workload, segmentS, true);
}

/** The workload in the design before issue 25 (3 s segments, each switch's second dropped), for comparisons. */
export function droppedWorkload(workload: Workload): Workload {
  return resegmented(workload, DROPPED_SEGMENT_S, false);
}

/** Seconds one block of `workload.pairs` pairs measures: both arms, and the aligned design's 1 s lead-in. */
export function measuredSeconds(workload: Workload): number {
  const { design } = workload;
  if (design.kind !== 'toggle') return 2 * workload.pairs * workload.durationS;
  return 2 * workload.pairs * design.segmentS + (design.aligned ? 1 : 0);
}
