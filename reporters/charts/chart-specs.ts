// Vega-Lite specs for the HTML report: pure functions of results.json and the history, rendered elsewhere.
import type { TopLevelSpec } from 'vega-lite';
import type { HistoryEntry } from '../../src/history/entry.ts';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';

type Arm = 'off' | 'on';
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
export const WIDTH = 640;
const armScale = { domain: ['off', 'on'], range: ['#4c78a8', '#e45756'] };
// Separate runs sit side by side on one axis, a short gap apart.
const RUN_GAP_S = 2;

type Layer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

export interface TimelinePoint {
  tS: number;
  tps: number;
  arm: Arm;
  /** One line per stretch of one arm, so a switch is never drawn as a slope. */
  segment: number;
}

export interface ArmSpan {
  startS: number;
  endS: number;
  arm: Arm;
}

/** Index of the schedule entry in force at tS (the last one started by then; the first before any started). */
function startIndexAt(schedule: readonly { atS: number }[], tS: number): number {
  let index = 0;
  schedule.forEach((entry, i) => {
    if (entry.atS <= tS) index = i;
  });
  return index;
}

/** Per-second TPS of every measured run, each second coloured by the arm that was on (schedule = arm starts). */
export function timelineData(measurement: Measurement): { points: TimelinePoint[]; spans: ArmSpan[] } {
  const points: TimelinePoint[] = [];
  const spans: ArmSpan[] = [];
  let offsetS = 0;
  let segment = 0;
  for (const run of measurement.runs) {
    const lengthS = run.tpsPerSecond.length;
    const fallback: Arm = run.arm === 'on' ? 'on' : 'off';
    const schedule = run.schedule.length > 0 ? run.schedule : [{ atS: 0, arm: fallback }];
    schedule.forEach((start, i) => {
      const endS = Math.min(schedule[i + 1]?.atS ?? lengthS, lengthS);
      if (endS > start.atS) spans.push({ startS: offsetS + start.atS, endS: offsetS + endS, arm: start.arm });
    });
    run.tpsPerSecond.forEach((tps, second) => {
      // sysbench's interval `second` covers (second, second + 1]; its midpoint decides the arm.
      const index = startIndexAt(schedule, second + 0.5);
      const arm = schedule[index]?.arm ?? fallback;
      points.push({ tS: offsetS + second + 0.5, tps, arm, segment: segment + index });
    });
    segment += schedule.length;
    offsetS += lengthS + RUN_GAP_S;
  }
  return { points, spans };
}

export function timelineSpec(measurement: Measurement): TopLevelSpec {
  const { points, spans } = timelineData(measurement);
  const x = { type: 'quantitative', title: 'seconds into the measured runs' } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 180,
    title: `TPS per second (${measurement.design})`,
    layer: [
      {
        data: { values: spans },
        mark: { type: 'rect', opacity: 0.12 },
        encoding: {
          x: { field: 'startS', ...x },
          x2: { field: 'endS' },
          color: { field: 'arm', type: 'nominal', scale: armScale, title: 'plugin' },
        },
      },
      {
        data: { values: points },
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: {
          x: { field: 'tS', ...x },
          y: { field: 'tps', type: 'quantitative', title: 'TPS' },
          color: { field: 'arm', type: 'nominal', scale: armScale, title: 'plugin' },
          detail: { field: 'segment', type: 'nominal' },
        },
      },
    ],
  };
}

/** A dashed red vertical line at the limit, labelled. */
function limitLayer(limitPct: number, x: { type: 'quantitative'; title: string; scale: object }): Layer {
  return {
    data: { values: [{ at: limitPct, text: `limit ${limitPct}%` }] },
    layer: [
      { mark: { type: 'rule', color: '#d62728', strokeDash: [6, 3], strokeWidth: 2 } },
      {
        mark: { type: 'text', color: '#d62728', align: 'right', baseline: 'top', dx: -4, y: 2 },
        encoding: { text: { field: 'text', type: 'nominal' } },
      },
    ],
    encoding: { x: { field: 'at', ...x } },
  };
}

/** The overhead and the A/A interval, each with its 95% interval, against the limit (red) and 0 (grey). */
export function overheadSpec(result: PluginResult): TopLevelSpec | null {
  const m = result.measurement;
  if (!m?.overheadCi95) return null;
  const rows = [
    {
      label: 'plugin on vs off',
      estimate: m.overheadPct,
      lower: m.overheadCi95[0],
      upper: m.overheadCi95[1],
    },
  ];
  const aa = result.calibration;
  if (aa)
    rows.push({
      label: 'A/A: off vs off',
      estimate: aa.biasPct,
      lower: aa.biasCi95[0],
      upper: aa.biasCi95[1],
    });
  // The limit often lies far right of the intervals; the axis must show it with room for its label.
  const lowest = Math.min(0, ...rows.map((r) => r.lower));
  const highest = Math.max(m.limitPct, ...rows.map((r) => r.upper));
  const pad = (highest - lowest) * 0.08;
  const x = {
    type: 'quantitative' as const,
    title: 'overhead % (95% interval)',
    scale: { domain: [lowest - pad, highest + pad], nice: true },
  };
  const y = { field: 'label', type: 'nominal', title: null, sort: null } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 28 * rows.length,
    title: `Overhead ${m.overheadPct.toFixed(1)}% against the ${m.limitPct}% limit: ${m.verdict}`,
    layer: [
      {
        data: { values: [{ at: 0 }] },
        mark: { type: 'rule', color: '#999' },
        encoding: { x: { field: 'at', ...x } },
      },
      limitLayer(m.limitPct, x),
      {
        data: { values: rows },
        mark: { type: 'rule', strokeWidth: 3 },
        encoding: { x: { field: 'lower', ...x }, x2: { field: 'upper' }, y },
      },
      {
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 80, color: '#000' },
        encoding: { x: { field: 'estimate', ...x }, y },
      },
    ],
  };
}

/** Measured history entries of the same plugin, server, workload and machine as `current`, oldest first. */
export function trendEntries(history: readonly HistoryEntry[], current: HistoryEntry): HistoryEntry[] {
  return history
    .filter(
      (e) =>
        e.title === current.title &&
        e.workload === current.workload &&
        e.fingerprint === current.fingerprint &&
        e.server.flavor === current.server.flavor &&
        e.server.version === current.server.version &&
        e.server.target === current.server.target &&
        e.overheadPct !== null,
    )
    .sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt));
}

/** Overhead per run across commits, with intervals and the limit; null when nothing was measured yet. */
export function trendSpec(entries: readonly HistoryEntry[]): TopLevelSpec | null {
  const values = entries.flatMap((e) =>
    e.overheadPct === null
      ? []
      : [
          {
            run: `${e.commit.slice(0, 7)} ${e.recordedAt.slice(5, 16).replace('T', ' ')}`,
            branch: e.branch,
            overheadPct: e.overheadPct,
            lower: e.overheadCi95?.[0] ?? e.overheadPct,
            upper: e.overheadCi95?.[1] ?? e.overheadPct,
            limitPct: e.limitPct,
          },
        ],
  );
  if (values.length === 0) return null;
  const x = {
    field: 'run',
    type: 'ordinal',
    sort: null,
    title: 'commit and time (UTC)',
    axis: { labelAngle: -35 },
  } as const;
  const y = { type: 'quantitative', title: 'overhead % (95% interval)' } as const;
  // Not the default palette: its red would read as the limit.
  const branch = { field: 'branch', type: 'nominal', scale: { scheme: 'dark2' } } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 200,
    title: 'Overhead across commits (history.jsonl); red: the limit',
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { x, y: { field: 'lower', ...y }, y2: { field: 'upper' }, color: branch },
      },
      { mark: { type: 'line', color: '#888' }, encoding: { x, y: { field: 'overheadPct', ...y } } },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: { x, y: { field: 'overheadPct', ...y }, color: branch },
      },
      {
        mark: { type: 'tick', color: '#d62728', thickness: 2 },
        encoding: { x, y: { field: 'limitPct', ...y } },
      },
    ],
  };
}
