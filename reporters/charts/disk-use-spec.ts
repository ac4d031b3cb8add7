// Vega-Lite spec of the audit log's disk use over the days ahead, one line per plugin, at the projected rate: a
// rotating log levels off at its bound, one that never rotates climbs until the free space (dashed) is gone.
import type { TopLevelSpec } from 'vega-lite';
import { diskUseGbAfter } from '../../src/projection/project.ts';
import type { Projection } from '../../src/results/per-event-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const STEPS = 60;

export interface DiskUsePoint {
  plugin: string;
  day: number;
  usedGb: number;
}

/** Days the chart spans: a bit past the latest moment a line fills the disk or levels off, from a week to a year. */
export function horizonDays(projections: readonly Projection[]): number {
  const days = projections.flatMap((p) => {
    const d = p.disk.kind === 'bounded' ? p.disk.retainedDays : p.disk.daysUntilFull;
    return d === null ? [] : [d];
  });
  if (days.length === 0) return 30;
  return Math.min(365, Math.max(7, Math.ceil(1.2 * Math.max(...days))));
}

/** Points of each plugin's line; an unbounded log stops at the free space, where the disk is full. */
export function diskUseData(
  results: readonly PluginResult[],
): { points: DiskUsePoint[]; freeDiskGb: number } | null {
  const withProjection = results.flatMap((r) =>
    r.perEvent ? [{ title: r.title, p: r.perEvent.projection }] : [],
  );
  const first = withProjection[0];
  if (!first) return null;
  const horizon = horizonDays(withProjection.map((w) => w.p));
  const points: DiskUsePoint[] = [];
  for (const { title, p } of withProjection) {
    for (let step = 0; step <= STEPS; step++) {
      const day = (horizon * step) / STEPS;
      points.push({ plugin: title, day, usedGb: Math.min(diskUseGbAfter(p, day), p.freeDiskGb) });
    }
  }
  return { points, freeDiskGb: first.p.freeDiskGb };
}

/** The chart, or null when no result has a per-event projection. */
export function diskUseSpec(results: readonly PluginResult[]): TopLevelSpec | null {
  const data = diskUseData(results);
  if (!data) return null;
  const x = { field: 'day', type: 'quantitative', title: 'days from now' } as const;
  return {
    $schema: SCHEMA,
    width: 640,
    height: 220,
    title: 'Audit log disk use at the projected traffic',
    layer: [
      {
        data: { values: data.points },
        mark: { type: 'line', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'usedGb', type: 'quantitative', title: 'GB on disk' },
          color: { field: 'plugin', type: 'nominal', title: null },
        },
      },
      {
        data: { values: [{ gb: data.freeDiskGb, text: `${data.freeDiskGb} GB free` }] },
        layer: [
          { mark: { type: 'rule', color: '#d62728', strokeDash: [6, 3] } },
          {
            mark: { type: 'text', color: '#d62728', align: 'left', baseline: 'bottom', x: 4, dy: -2 },
            encoding: { text: { field: 'text', type: 'nominal' } },
          },
        ],
        encoding: { y: { field: 'gb', type: 'quantitative' } },
      },
    ],
  };
}
