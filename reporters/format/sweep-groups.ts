import type { PluginResult } from '../../src/results/schema.ts';
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
