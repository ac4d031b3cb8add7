// Vega-Lite spec of a concurrency sweep: each run's overhead against sysbench threads, the 95% interval as a bar
// through each point, one colour per run and cores.
import type { TopLevelSpec } from 'vega-lite';
import type { SweepGroup } from '../format/sweep-groups.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

export interface SweepChartPoint {
  series: string;
  threads: number;
  overheadPct: number;
  low: number;
  high: number;
}

/** The measured points, each with its interval (the estimate itself where the measurement has none). */
export function sweepChartData(groups: readonly SweepGroup[]): SweepChartPoint[] {
  return groups.flatMap((g) =>
    g.points.flatMap((p) =>
      p.overheadPct === null
        ? []
        : [
            {
              series: `${g.run} (${p.openLoopRate === null ? '' : 'open loop, '}${p.cores} cores)`,
              threads: p.threads,
              overheadPct: p.overheadPct,
              low: p.ci95?.[0] ?? p.overheadPct,
              high: p.ci95?.[1] ?? p.overheadPct,
            },
          ],
    ),
  );
}

/** The chart, or null when no sweep has a measured point. */
export function sweepSpec(groups: readonly SweepGroup[]): TopLevelSpec | null {
  const values = sweepChartData(groups);
  if (values.length === 0) return null;
  return againstThreadsSpec(values, {
    title: 'Throughput overhead against threads (95% intervals)',
    yTitle: 'overhead %',
    field: 'overheadPct',
  });
}

/**
 * One figure per series against threads (log 2 axis): its 95% interval as a rule from `low` to `high`, the estimate
 * `field` as a line with points, and a dashed zero. The sweep's overhead and its p99 change both draw this.
 */
export function againstThreadsSpec(
  values: readonly object[],
  chart: { title: string; yTitle: string; field: string },
): TopLevelSpec {
  const x = {
    field: 'threads',
    type: 'quantitative',
    scale: { type: 'log', base: 2 },
    title: 'sysbench threads',
  } as const;
  // Series name runs and the open loop ("sa (open loop, pinned cores)"): below the plot, uncut.
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    legend: { orient: 'bottom', labelLimit: 0 },
  } as const;
  return {
    $schema: SCHEMA,
    width: 640,
    height: 240,
    title: chart.title,
    data: { values: [...values] },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'low', type: 'quantitative', title: chart.yTitle },
          y2: { field: 'high' },
          color,
        },
      },
      {
        mark: { type: 'line', point: true },
        encoding: { x, y: { field: chart.field, type: 'quantitative' }, color },
      },
      {
        data: { values: [{ zero: 0 }] },
        mark: { type: 'rule', color: '#888', strokeDash: [4, 3] },
        encoding: { y: { field: 'zero', type: 'quantitative' } },
      },
    ],
  };
}
