// Vega-Lite spec of the p99 change against sysbench threads: each measured point with its 95% interval, one colour
// per run and cores, beside the throughput sweep chart.
import type { TopLevelSpec } from 'vega-lite';
import type { SweepGroup } from '../format/sweep-groups.ts';
import { againstThreadsSpec } from './sweep-spec.ts';

export interface LatencyChartPoint {
  series: string;
  threads: number;
  p99ChangePct: number;
  low: number;
  high: number;
}

/** The points whose latency was measured, each with its interval (the estimate itself where there is none). */
export function latencyChartData(groups: readonly SweepGroup[]): LatencyChartPoint[] {
  return groups.flatMap((g) =>
    g.points.flatMap((p) =>
      p.p99 === null
        ? []
        : [
            {
              series: `${g.run} (${p.openLoopRate === null ? '' : 'open loop, '}${p.cores} cores)`,
              threads: p.threads,
              p99ChangePct: p.p99.changePct,
              low: p.p99.ci95?.[0] ?? p.p99.changePct,
              high: p.p99.ci95?.[1] ?? p.p99.changePct,
            },
          ],
    ),
  );
}

/** The chart, or null when no sweep point measured latency. */
export function latencySpec(groups: readonly SweepGroup[]): TopLevelSpec | null {
  const values = latencyChartData(groups);
  if (values.length === 0) return null;
  return againstThreadsSpec(values, {
    title: 'p99 latency change against threads (95% intervals)',
    yTitle: 'p99 change %',
    field: 'p99ChangePct',
  });
}
