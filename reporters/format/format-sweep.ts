import { mdText } from '../../src/markdown/markdown.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import type { ReportSection } from './format-html.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { runIdOf } from './run-status.ts';

/** One point of a run's concurrency sweep: its own measurement. */
export interface SweepPoint {
  runId: string;
  threads: number;
  cores: 'pinned' | 'all';
  overheadPct: number | null;
  ci95: [number, number] | null;
  verdict: PluginResult['verdict'];
  baselineTps: number | null;
  /** p95/p99 change in percent with the plugin on, and their intervals; null where latency was not measured. */
  p95: { changePct: number; ci95: [number, number] | null } | null;
  p99: { changePct: number; ci95: [number, number] | null } | null;
  /** An open-loop point's fixed rate in transactions per second; null for the closed-loop points. */
  openLoopRate: number | null;
}

/** The points of one configuration run on one server and workload, by threads. */
export interface SweepGroup {
  run: string;
  server: string;
  workload: string;
  points: SweepPoint[];
}

const latencyOf = (m: NonNullable<PluginResult['measurement']>): Pick<SweepPoint, 'p95' | 'p99'> => {
  const latency = m.latency;
  if (!latency?.measured) return { p95: null, p99: null };
  const change = (q: typeof latency.p99) => ({ changePct: q.changePct, ci95: q.changeCi95Pct });
  return { p95: change(latency.p95), p99: change(latency.p99) };
};

const runOf = (r: PluginResult): string => r.measurement?.sweepOf ?? runIdOf(r);

/**
 * Runs measured at more than one point (threads, cores), grouped per run, server and workload. A run at its one
 * default point has no sweep, and the reports stay as they were.
 */
export function sweepGroups(results: readonly PluginResult[]): SweepGroup[] {
  const groups = new Map<string, SweepGroup>();
  for (const r of results) {
    const m = r.measurement;
    if (m?.threads === undefined || m.cores === undefined) continue;
    const server = `${r.server.flavor} ${r.server.version} (${r.server.target})`;
    const key = [runOf(r), server, r.workload].join('\u0000');
    const group = groups.get(key) ?? { run: runOf(r), server, workload: r.workload, points: [] };
    group.points.push({
      runId: runIdOf(r),
      threads: m.threads,
      cores: m.cores,
      overheadPct: r.overheadPct,
      ci95: r.overheadCi95,
      verdict: r.verdict,
      baselineTps: r.baselineTps,
      ...latencyOf(m),
      openLoopRate: m.openLoop?.ratePerS ?? null,
    });
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((g) => g.points.length > 1 || g.points.some((p) => p.runId !== g.run))
    .map((g) => ({
      ...g,
      // Closed-loop points by threads, then the open-loop point.
      points: [...g.points].sort(
        (a, b) =>
          Number(a.openLoopRate !== null) - Number(b.openLoopRate !== null) ||
          a.threads - b.threads ||
          a.cores.localeCompare(b.cores),
      ),
    }));
}

const HEAD = [
  'threads',
  'cores',
  'baseline TPS',
  'overhead [95% CI]',
  'p95 change [95% CI]',
  'p99 change [95% CI]',
  'verdict',
  'result id',
];

const cells = (p: SweepPoint): string[] => [
  p.openLoopRate === null ? String(p.threads) : `${p.threads}, open loop ${p.openLoopRate}/s`,
  p.cores,
  fixed(p.baselineTps),
  estimateText(p.overheadPct, p.ci95, '%'),
  estimateText(p.p95?.changePct ?? null, p.p95?.ci95 ?? null, '%'),
  estimateText(p.p99?.changePct ?? null, p.p99?.ci95 ?? null, '%'),
  p.verdict,
  p.runId,
];

/** The terminal's table per sweep: one row per point, columns padded. */
export function formatSweepText(groups: readonly SweepGroup[]): string {
  return groups
    .map((g) => {
      const rows = [HEAD, ...g.points.map(cells)];
      const widths = HEAD.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
      const lines = rows.map((r) =>
        r
          .map((v, c) => v.padEnd(widths[c] ?? 0))
          .join('  ')
          .trimEnd(),
      );
      return [`${g.run} on ${g.server}, ${g.workload}: by threads`, ...lines.map((l) => `  ${l}`)].join('\n');
    })
    .join('\n\n');
}

/** summary.md's table per sweep: one row per point. */
export function formatSweepMarkdown(groups: readonly SweepGroup[]): string[] {
  return groups.flatMap((g) => [
    `### ${mdText(g.run)} on ${mdText(g.server)}, ${mdText(g.workload)}: overhead by threads`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${' --- |'.repeat(HEAD.length)}`,
    ...g.points.map((p) => `| ${cells(p).map(mdText).join(' | ')} |`),
    '',
  ]);
}

/** index.html's section for sweeps: overhead against threads with intervals, and each sweep's table. */
export function sweepSection(groups: readonly SweepGroup[], svg: string | null): ReportSection | null {
  if (groups.length === 0) return null;
  return {
    heading: 'Overhead by threads',
    lines: [
      'Each point is a measurement of its own (its own pairs and interval) on the same server and tables; a point other than the workload’s own threads and cores has a result id of its own, and the history compares it only with the same point.',
      'An open-loop point sends a fixed rate (70% of the baseline’s throughput at its threads): its throughput stays at the rate while the server keeps up, and what the plugin adds shows as queueing in the latency.',
    ],
    figures: [{ name: 'sweep', svg, empty: 'No point of a sweep has an overhead estimate yet.' }],
    tables: groups.map((g) => ({
      caption: `${g.run} on ${g.server}, ${g.workload}`,
      head: HEAD.map((text) => ({ text })),
      rows: g.points.map(cells),
    })),
  };
}
