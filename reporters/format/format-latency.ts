import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import { latencySpec } from '../charts/latency-spec.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { runIdOf } from './run-status.ts';
import type { SectionContent } from './section.ts';
import type { SweepGroup } from './sweep-groups.ts';

type Quantile = Extract<NonNullable<Measurement['latency']>, { measured: true }>['p99'];

/** One result's tail latency: a row per result (so one per sweep point), or the reason it was not measured. */
export interface LatencyRow {
  runId: string;
  threads: number | null;
  cells: string[];
  /** Why latency is missing for this result (its cells are then only the id and threads); null when it was measured. */
  missing: string | null;
}

const HEAD = [
  'result id',
  'threads',
  'p95 off → on ms',
  'p95 change % [95% CI]',
  'p99 off → on ms',
  'p99 change % [95% CI]',
  'p99 change ms [95% CI]',
  'pairs',
  'p99 limit',
];

const arms = (q: Quantile) => `${fixed(q.offMs, 2)} → ${fixed(q.onMs, 2)}`;
const msText = (q: Quantile) => {
  const ci = q.changeCi95Ms ? ` [${fixed(q.changeCi95Ms[0], 2)}, ${fixed(q.changeCi95Ms[1], 2)}]` : '';
  return `${fixed(q.changeMs, 2)}${ci}`;
};

/** The results that carry a latency record, in result order. */
export function latencyRows(results: readonly PluginResult[]): LatencyRow[] {
  return results.flatMap((r): LatencyRow[] => {
    const latency = r.measurement?.latency;
    if (!latency) return [];
    const runId = runIdOf(r);
    const threads = r.measurement?.threads ?? null;
    const lead = [runId, threads === null ? '–' : String(threads)];
    if (!latency.measured) {
      return [{ runId, threads, cells: lead, missing: latency.reason }];
    }
    const limit =
      latency.maxP99IncreasePct === null
        ? '–'
        : `${latency.maxP99IncreasePct}%${latency.p99LimitFailed ? ' exceeded' : ''}`;
    const cells = [
      ...lead,
      arms(latency.p95),
      estimateText(latency.p95.changePct, latency.p95.changeCi95Pct, '%'),
      arms(latency.p99),
      estimateText(latency.p99.changePct, latency.p99.changeCi95Pct, '%'),
      msText(latency.p99),
      String(latency.pairs),
      limit,
    ];
    return [{ runId, threads, cells, missing: null }];
  });
}

const WHAT =
  'Transaction latency per arm (src/workload/latency-wrapper.lua), pooled over each segment’s kept seconds; the change is paired across segments like throughput (docs/concurrency.md, "Latency beside throughput").';

/** The head and rows less each column in which no row has a value (a dash in every cell: no run has a p99 limit). */
function withoutEmptyColumns<H>(head: H[], rows: string[][]): { head: H[]; rows: string[][] } {
  const kept = head.map((_, i) => rows.some((row) => (row[i] ?? '–') !== '–'));
  return { head: head.filter((_, i) => kept[i]), rows: rows.map((row) => row.filter((_, i) => kept[i])) };
}

/** The measured results' table, a line for each result that did not measure latency, and the p99 change against threads for sweeps. */
export function latencyContent(rows: readonly LatencyRow[], sweeps: readonly SweepGroup[]): SectionContent {
  const measured = rows.filter((r) => r.missing === null);
  return {
    about: [WHAT],
    charts: [{ name: 'latency', spec: latencySpec(sweeps), empty: 'No point of a sweep measured latency.' }],
    tables:
      measured.length === 0
        ? []
        : [
            {
              caption: 'p95 and p99 with the plugin off and on',
              ...withoutEmptyColumns(
                HEAD.map((text) => ({ text })),
                measured.map((r) => r.cells),
              ),
            },
          ],
    list: rows.flatMap((r) => (r.missing === null ? [] : [`${r.runId}: not measured: ${r.missing}`])),
  };
}
