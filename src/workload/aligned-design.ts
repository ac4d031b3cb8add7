import type { Workload } from './workload.ts';

/** The aligned design's segment length: in the replay of the recorded traces 1 s segments covered 0 too seldom. */
export const ALIGNED_SEGMENT_S = 2;

/**
 * A toggled workload in the aligned design (Design.aligned, issue 25) with shorter segments, keeping the seconds a
 * block measures and the most a measurement may take: smoke's 8 pairs of 3 s (48 s a block, at most 24 pairs)
 * become 12 pairs of 2 s (at most 36). Throws for a workload that does not toggle.
 */
export function alignedWorkload(workload: Workload, segmentS: number = ALIGNED_SEGMENT_S): Workload {
  const { design } = workload;
  if (design.kind !== 'toggle') throw new Error(`Workload '${workload.name}' does not toggle`);
  const scaled = (pairs: number) => Math.max(2, Math.floor((pairs * design.segmentS) / segmentS));
  return {
    ...workload,
    design: { kind: 'toggle', segmentS, aligned: true },
    pairs: scaled(workload.pairs),
    maxPairs: scaled(workload.maxPairs),
  };
}
