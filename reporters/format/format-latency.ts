import { mdText } from '../../src/markdown/markdown.ts';
import type { Measurement, PluginResult } from '../../src/results/schema.ts';
import type { ReportSection } from './format-html.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { runIdOf } from './run-status.ts';

type Quantile = Extract<NonNullable<Measurement['latency']>, { measured: true }>['p99'];

/** One result's tail latency: a row per result (so one per sweep point), or the reason it was not measured. */
export interface LatencyRow {
  runId: string;
  threads: number | null;
  cells: string[];
  /** Why latency is missing for this result; null when it was measured. */
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
      const cells = [...lead, `not measured: ${latency.reason}`, '', '', '', '', '', ''];
      return [{ runId, threads, cells, missing: latency.reason }];
    }
    const limit =
      latency.maxP99IncreasePct === null
        ? '–'
        : `${latency.maxP99IncreasePct}%${latency.p99LimitFailed ? ' **exceeded**' : ''}`;
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

/** The terminal's latency block: one row per measured result, columns padded, then a line per missing one. */
export function formatLatencyText(rows: readonly LatencyRow[]): string {
  const table = [HEAD, ...rows.filter((r) => r.missing === null).map((r) => r.cells)];
  const widths = HEAD.map((_, c) => Math.max(...table.map((r) => (r[c] ?? '').length)));
  const lines = table.map((r) =>
    r
      .map((v, c) => v.replaceAll('**', '').padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const missing = rows.flatMap((r) => (r.missing === null ? [] : [`${r.runId}: not measured: ${r.missing}`]));
  return [...(table.length > 1 ? lines : []), ...missing].map((line) => `  ${line}`).join('\n');
}

const WHAT =
  'Transaction latency per arm (src/workload/latency-wrapper.lua), pooled over each segment’s kept seconds; the change is paired across segments like throughput (docs/concurrency.md, "Latency beside throughput").';

/** summary.md's latency table, or nothing when no result measured latency. */
export function formatLatencyMarkdown(rows: readonly LatencyRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '### Tail latency, plugin off and on',
    '',
    WHAT,
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${' --- |'.repeat(HEAD.length)}`,
    // The run id and why latency is missing are outside text; the figures and the limit's bold mark are ours.
    ...rows.map((r) => {
      const [runId = '', threads = '', ...rest] = r.cells;
      const figures = r.missing === null ? rest : rest.map(mdText);
      return `| ${[mdText(runId), threads, ...figures].join(' | ')} |`;
    }),
    '',
  ];
}

/** index.html's latency section: the p99 change against threads for sweeps (svg), and the same table. */
export function latencySection(rows: readonly LatencyRow[], svg: string | null): ReportSection | null {
  if (rows.length === 0) return null;
  return {
    heading: 'Tail latency',
    lines: [WHAT],
    figures: [{ name: 'latency', svg, empty: 'No point of a sweep measured latency.' }],
    tables: [
      {
        caption: 'p95 and p99 with the plugin off and on',
        head: HEAD.map((text) => ({ text })),
        rows: rows.map((r) => r.cells.map((v) => v.replaceAll('**', ''))),
      },
    ],
  };
}
