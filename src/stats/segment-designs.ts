// The core of `npm run bench:segments` (scripts/segments.ts): today's toggle design and designs that switch just
// ahead of sysbench's report boundaries, replayed over the same recorded traces in windows of the same length, so
// what shorter segments buy per minute of measuring is read off this machine's own noise before any is built.
import type { RecordedTrace } from './allan-traces.ts';
import { wilsonInterval } from './coverage.ts';
import { replayCoverage } from './trace-replay.ts';

export interface SegmentDesign {
  label: string;
  segmentS: number;
  /** Where the switch lands against the boundary (trace-replay.ts). */
  switchOffsetS: number;
  switchToleranceS: number;
  /** What the interval counts as one observation (trace-replay.ts): each pair, or each ABBA quad. */
  unit?: 'pair' | 'abba';
}

/** Today's: the switch acknowledged ~50 ms after its boundary, that second dropped (2 of every 3 s kept). */
export const todayDesign: SegmentDesign = {
  label: 'today: 3 s, switch second dropped',
  segmentS: 3,
  switchOffsetS: 0.05,
  switchToleranceS: 0,
};

/** Switches acknowledged 5 ms before the boundary, placed on it by a 20 ms tolerance: no second dropped. */
export const alignedDesign = (segmentS: number): SegmentDesign => ({
  label: `aligned: ${segmentS} s, none dropped`,
  segmentS,
  switchOffsetS: -0.005,
  switchToleranceS: 0.02,
});

/**
 * Aligned, with each ABBA quad as one observation: a quad of 1 s segments spans the 4 s of a pair of 2 s ones, and
 * cancels a drift that is linear over it. On the recorded traces it was narrower than 2 s pairs but covered worse
 * (docs/measurement.md, `bench:segments`), so no workload uses it.
 */
export const alignedQuadsDesign = (segmentS: number): SegmentDesign => ({
  ...alignedDesign(segmentS),
  label: `aligned: ${segmentS} s, ABBA quads as units`,
  unit: 'abba',
});

export const comparedDesigns: readonly SegmentDesign[] = [
  todayDesign,
  ...[3, 2, 1].map(alignedDesign),
  alignedQuadsDesign(1),
];

export interface DesignOutcome {
  condition: string;
  design: SegmentDesign;
  pairs: number;
  /** Non-overlapping windows (both ABBA phases of each), so the coverage's Wilson interval counts them once. */
  windows: number;
  nullCoverage: number;
  nullCoverageCi95: [number, number];
  meanHalfWidthPp: number;
  /** The mean estimate when `effectPct` is imposed on the on-seconds: below it, what mixing pulls toward 0. */
  effectEstimatePct: number;
}

export function compareDesigns(
  traces: readonly RecordedTrace[],
  options: { windowS: number; effectPct: number; designs?: readonly SegmentDesign[] },
): DesignOutcome[] {
  const { windowS, effectPct, designs = comparedDesigns } = options;
  const conditions = [...new Set(traces.map((t) => t.condition))];
  const outcomes: DesignOutcome[] = [];
  for (const condition of conditions) {
    const series = traces.filter((t) => t.condition === condition).map((t) => t.tpsPerSecond);
    for (const design of designs) {
      const pairs = Math.floor(windowS / (2 * design.segmentS));
      if (pairs < 2) {
        throw new Error(
          `A ${windowS} s window holds fewer than 2 pairs of ${design.segmentS} s segments: give --window of at least ${4 * design.segmentS}`,
        );
      }
      const common = { ...design, pairs, strideS: windowS };
      const nulls = replayCoverage(series, { ...common, overheadPct: 0 });
      const effect = replayCoverage(series, { ...common, overheadPct: effectPct });
      outcomes.push({
        condition,
        design,
        pairs,
        windows: nulls.windows,
        nullCoverage: nulls.windows > 0 ? nulls.containing / nulls.windows : Number.NaN,
        nullCoverageCi95: wilsonInterval(nulls.containing, nulls.windows),
        meanHalfWidthPp: nulls.meanHalfWidthPp,
        effectEstimatePct: effect.meanEstimatePct,
      });
    }
  }
  return outcomes;
}

const pct = (fraction: number) => `${(100 * fraction).toFixed(0)}%`;

/** A Markdown table, one row per condition and design. */
export function formatDesigns(outcomes: readonly DesignOutcome[], effectPct: number): string {
  const header = `| condition | design | pairs | windows | null coverage [95% Wilson] | mean half-width (pp) | estimate of an imposed ${effectPct}% |`;
  const rows = outcomes.map(
    (o) =>
      `| ${o.condition} | ${o.design.label} | ${o.pairs} | ${o.windows} | ${pct(o.nullCoverage)} [${pct(o.nullCoverageCi95[0])}, ${pct(o.nullCoverageCi95[1])}] | ${o.meanHalfWidthPp.toFixed(2)} | ${o.effectEstimatePct.toFixed(2)}% |`,
  );
  return [header, '| --- | --- | ---: | ---: | ---: | ---: | ---: |', ...rows].join('\n');
}
