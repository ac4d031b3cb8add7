import type { MeasurePlan } from './workload.ts';

/** The aligned design's segment length: in the replay of the recorded traces 1 s segments covered 0 too seldom. */
export const ALIGNED_SEGMENT_S = 2;
/** The design every toggled workload used before issue 25: 3 s segments, each switch's second dropped. */
export const DROPPED_SEGMENT_S = 3;

/** How a toggled plan is re-cut: aligned (Design.aligned, issue 25) or with each switch's second dropped. */
export type Segments = 'aligned' | 'dropped';

/**
 * A toggled plan's design and pairs re-cut into the segments asked for, keeping the seconds a block measures and the
 * most a measurement may take: aligned, switches land on sysbench's report boundaries, so no second is dropped, in
 * 2 s segments (8 pairs of 3 s, 48 s a block, at most 24 pairs, become 12 pairs of 2 s, at most 36); dropped is the
 * design before issue 25 (3 s segments, each switch's second dropped), for comparisons. Throws for a plan that does
 * not toggle; planFor (src/bench/measure-plan.ts) applies it.
 */
export function resegmented(
  plan: Pick<MeasurePlan, 'design' | 'pairs' | 'maxPairs'>,
  segments: Segments,
  name: string,
): Pick<MeasurePlan, 'design' | 'pairs' | 'maxPairs'> {
  const { design } = plan;
  if (design.kind !== 'toggle') throw new Error(`Workload '${name}' does not toggle`);
  const segmentS = segments === 'aligned' ? ALIGNED_SEGMENT_S : DROPPED_SEGMENT_S;
  const scaled = (pairs: number) => Math.max(2, Math.floor((pairs * design.segmentS) / segmentS));
  return {
    design:
      segments === 'aligned' ? { kind: 'toggle', segmentS, aligned: true } : { kind: 'toggle', segmentS },
    pairs: scaled(plan.pairs),
    maxPairs: scaled(plan.maxPairs),
  };
}

/** Seconds one block of `plan.pairs` pairs measures: both arms, and the aligned design's 1 s lead-in. */
export function measuredSeconds(plan: Pick<MeasurePlan, 'design' | 'pairs' | 'durationS'>): number {
  const { design } = plan;
  if (design.kind !== 'toggle') return 2 * plan.pairs * plan.durationS;
  return 2 * plan.pairs * design.segmentS + (design.aligned ? 1 : 0);
}
