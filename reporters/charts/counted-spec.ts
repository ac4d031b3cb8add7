// Vega-Lite spec of where a plugin's added instructions go: per counted run, the functions whose own instructions
// it adds most per transaction, as horizontal bars coloured by object file (the plugin, the server, libc).
import type { TopLevelSpec } from 'vega-lite';
import type { PluginResult } from '../../src/results/schema.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

export interface CountedBar {
  run: string;
  fn: string;
  object: string;
  addedPerTx: number;
}

export function countedBars(results: readonly PluginResult[]): CountedBar[] {
  return results.flatMap((r) =>
    // Arms refused as not comparable give no cost of the plugin's to chart.
    (r.counted?.comparable?.refused ? [] : (r.counted?.topFunctions ?? [])).map((f) => ({
      run: r.runId ?? r.title,
      fn: f.fn.length > 40 ? `${f.fn.slice(0, 39)}…` : f.fn,
      object: f.object,
      addedPerTx: Math.round(f.addedPerTx),
    })),
  );
}

/** The chart, or null when no result was counted. */
export function countedSpec(results: readonly PluginResult[]): TopLevelSpec | null {
  const bars = countedBars(results);
  if (bars.length === 0) return null;
  return {
    $schema: SCHEMA,
    title: 'Instructions added per transaction, by function (counted, top ten per run)',
    data: { values: bars },
    facet: { row: { field: 'run', type: 'nominal', title: null } },
    spec: {
      width: 480,
      height: { step: 16 },
      mark: 'bar',
      encoding: {
        y: { field: 'fn', type: 'nominal', sort: '-x', title: null },
        x: { field: 'addedPerTx', type: 'quantitative', title: 'instructions added per transaction' },
        color: { field: 'object', type: 'nominal', title: 'object file' },
        tooltip: [
          { field: 'fn', type: 'nominal' },
          { field: 'object', type: 'nominal' },
          { field: 'addedPerTx', type: 'quantitative', format: ',' },
        ],
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}
