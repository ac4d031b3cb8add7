// The trend page's two charts per run (reporters/trend/trend-page.ts), pure Vega-Lite specs of the history entries:
// the wall clock, one series per machine fingerprint (only one fingerprint's figures compare), and the counted
// instructions across every runner (one identity's counts compare on any machine). Every value from a history line
// reaches the spec as data on one line (oneLine); Vega's SVG renderer escapes text it draws.
import type { TopLevelSpec } from 'vega-lite';
import type { HistoryEntry } from '../../src/history/entry.ts';
import { oneLine } from '../../src/markdown/markdown.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const WIDTH = 640;

const label = (e: HistoryEntry) =>
  oneLine(`${e.commit.slice(0, 7)} ${e.recordedAt.slice(5, 16).replace('T', ' ')}`);

const x = {
  field: 'entry',
  type: 'ordinal',
  sort: null,
  title: 'commit and time (UTC)',
  axis: { labelAngle: -35 },
} as const;

/** Wall-clock overhead with its interval, coloured and joined by machine fingerprint; null when nothing has a figure. */
export function wallClockTrendSpec(entries: readonly HistoryEntry[]): TopLevelSpec | null {
  const values = entries.flatMap((e) =>
    e.overheadPct === null
      ? []
      : [
          {
            entry: label(e),
            fingerprint: oneLine(e.fingerprint),
            overheadPct: e.overheadPct,
            lower: e.overheadCi95?.[0] ?? e.overheadPct,
            upper: e.overheadCi95?.[1] ?? e.overheadPct,
          },
        ],
  );
  if (values.length === 0) return null;
  const y = { type: 'quantitative', title: 'overhead % (95% interval)' } as const;
  const color = {
    field: 'fingerprint',
    type: 'nominal',
    title: 'machine fingerprint',
    // A fingerprint names the CPU model in full: Vega's default cuts it at 160 px.
    legend: { labelLimit: 400, orient: 'bottom', direction: 'vertical' },
    scale: { scheme: 'dark2' },
  } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 200,
    title: 'Wall clock: compared only within one machine fingerprint',
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { x, y: { field: 'lower', ...y }, y2: { field: 'upper' }, color },
      },
      {
        mark: { type: 'line' },
        encoding: { x, y: { field: 'overheadPct', ...y }, color, detail: { field: 'fingerprint' } },
      },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: { x, y: { field: 'overheadPct', ...y }, color },
      },
    ],
  };
}

/** Counted instructions the plugin adds, one line across every runner, points shaped by fingerprint; null uncounted. */
export function countedTrendSpec(entries: readonly HistoryEntry[]): TopLevelSpec | null {
  const values = entries.flatMap((e) =>
    e.counted === null
      ? []
      : [
          {
            entry: label(e),
            fingerprint: oneLine(e.fingerprint),
            instructionsPct: e.counted.instructionsPct,
            lower: e.counted.instructionsPctCi95?.[0] ?? e.counted.instructionsPct,
            upper: e.counted.instructionsPctCi95?.[1] ?? e.counted.instructionsPct,
          },
        ],
  );
  if (values.length === 0) return null;
  const y = { type: 'quantitative', title: 'added instructions % (95% interval)' } as const;
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 160,
    title: 'Counted: compared across every runner',
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2, color: '#555' },
        encoding: { x, y: { field: 'lower', ...y }, y2: { field: 'upper' } },
      },
      { mark: { type: 'line', color: '#1f77b4' }, encoding: { x, y: { field: 'instructionsPct', ...y } } },
      {
        mark: { type: 'point', filled: true, size: 60, color: '#1f77b4' },
        encoding: {
          x,
          y: { field: 'instructionsPct', ...y },
          shape: {
            field: 'fingerprint',
            type: 'nominal',
            title: 'machine fingerprint',
            legend: { labelLimit: 400, orient: 'bottom', direction: 'vertical' },
          },
        },
      },
    ],
  };
}
