// Vega-Lite spec of the p99 change against sysbench threads: each measured point with its 95% interval, one colour
// per run and cores, beside the throughput sweep chart.
import type { TopLevelSpec } from 'vega-lite';
import type { SweepGroup } from '../format/format-sweep.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

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
              series: `${g.run} (${p.cores} cores)`,
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
  const x = {
    field: 'threads',
    type: 'quantitative',
    scale: { type: 'log', base: 2 },
    title: 'sysbench threads',
  } as const;
  const color = { field: 'series', type: 'nominal', title: null } as const;
  return {
    $schema: SCHEMA,
    width: 640,
    height: 240,
    title: 'p99 latency change against threads (95% intervals)',
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'low', type: 'quantitative', title: 'p99 change %' },
          y2: { field: 'high' },
          color,
        },
      },
      {
        mark: { type: 'line', point: true },
        encoding: { x, y: { field: 'p99ChangePct', type: 'quantitative' }, color },
      },
      {
        data: { values: [{ zero: 0 }] },
        mark: { type: 'rule', color: '#888', strokeDash: [4, 3] },
        encoding: { y: { field: 'zero', type: 'quantitative' } },
      },
    ],
  };
}
