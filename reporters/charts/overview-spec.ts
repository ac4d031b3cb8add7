// The HTML report's opening chart: every run's overhead interval against its own limit, ranked. Pure, like chart-specs.
import type { TopLevelSpec } from 'vega-lite';
import type { PluginResult } from '../../src/results/schema.ts';
import { serverLabel } from '../format/format-summary.ts';
import { type RunStatus, runIdOf, runStatus } from '../format/run-status.ts';
import { SCHEMA, WIDTH } from './chart-specs.ts';

export interface OverviewRow {
  /** The y-axis label: the run's id, with server and workload when runs differ in them; unique within the chart. */
  run: string;
  estimate: number;
  lower: number;
  upper: number;
  limitPct: number;
  verdict: PluginResult['verdict'];
  /** The run's status over its lifecycle checks and its overhead: what the bar's colour says. */
  status: RunStatus;
}

// Red stays the limit's colour, as in every other chart of the report.
const statusScale = {
  domain: ['pass', 'inconclusive', 'fail'],
  range: ['#54a24b', '#f58518', '#6a3d9a'],
};

/**
 * One row per result with an overhead estimate, highest estimate first; a run without an interval is a point. Rows
 * name the server and workload only when the runs differ in them.
 */
export function overviewRows(results: readonly PluginResult[]): OverviewRow[] {
  const measured = results.filter((r) => r.overheadPct !== null);
  const where = (r: PluginResult) => `${serverLabel(r)} · ${r.workload}`;
  const oneWhere = new Set(measured.map(where)).size <= 1;
  const rows = measured.map((r) => ({
    run: oneWhere ? runIdOf(r) : `${runIdOf(r)} · ${where(r)}`,
    estimate: r.overheadPct ?? 0,
    lower: r.overheadCi95?.[0] ?? r.overheadPct ?? 0,
    upper: r.overheadCi95?.[1] ?? r.overheadPct ?? 0,
    limitPct: r.limitPct,
    verdict: r.verdict,
    status: runStatus(r).status,
  }));
  // Vega-Lite merges equal labels into one band: number the repeats.
  const seen = new Map<string, number>();
  for (const row of rows) {
    const n = (seen.get(row.run) ?? 0) + 1;
    seen.set(row.run, n);
    if (n > 1) row.run = `${row.run} #${n}`;
  }
  return rows.sort((a, b) => b.estimate - a.estimate);
}

/** The ranked overview chart, or null when no run has an overhead estimate. */
export function overviewSpec(results: readonly PluginResult[]): TopLevelSpec | null {
  const rows = overviewRows(results);
  if (rows.length === 0) return null;
  const lowest = Math.min(0, ...rows.map((r) => r.lower));
  const highest = Math.max(...rows.map((r) => Math.max(r.upper, r.limitPct)));
  const pad = (highest - lowest) * 0.05;
  const x = {
    type: 'quantitative' as const,
    title: 'overhead % (95% interval); red tick: that run’s limit',
    scale: { domain: [lowest - pad, highest + pad], nice: true },
  };
  const y = {
    field: 'run',
    type: 'nominal',
    title: null,
    sort: rows.map((r) => r.run),
    axis: { labelLimit: 260 },
  } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH - 260,
    height: { step: 26 },
    title: `Overhead of every run against its limit, highest first (${rows.length} run${rows.length === 1 ? '' : 's'})`,
    layer: [
      {
        data: { values: [{ at: 0 }] },
        mark: { type: 'rule', color: '#999' },
        encoding: { x: { field: 'at', ...x } },
      },
      {
        data: { values: rows },
        layer: [
          {
            mark: { type: 'rule', strokeWidth: 3 },
            encoding: {
              x: { field: 'lower', ...x },
              x2: { field: 'upper' },
              y,
              color: {
                field: 'status',
                type: 'nominal',
                scale: statusScale,
                legend: { orient: 'bottom', title: 'status' },
              },
            },
          },
          {
            mark: { type: 'point', filled: true, size: 70, color: '#000' },
            encoding: { x: { field: 'estimate', ...x }, y },
          },
          {
            mark: { type: 'tick', color: '#d62728', thickness: 2 },
            encoding: { x: { field: 'limitPct', ...x }, y },
          },
        ],
      },
    ],
  };
}
