import type { PluginResult } from '../../src/results/schema.ts';
import { estimateText, fixed } from './format-numbers.ts';
import type { SectionContent } from './section.ts';

/** One configuration of a plugin, ranked among the other configurations of the same plugin measured in the run. */
export interface VariantRow {
  rank: number;
  runId: string;
  title: string;
  overheadPct: number | null;
  ci95: [number, number] | null;
  verdict: PluginResult['verdict'];
  logBytesPerTxn: number | null;
  /** Log bytes per transaction as a percentage of the most verbose variant's. */
  logSharePct: number | null;
}

export interface VariantGroup {
  plugin: string;
  server: string;
  workload: string;
  rows: VariantRow[];
}

const groupKey = (r: PluginResult) =>
  [r.plugin, r.server.flavor, r.server.version, r.server.target, r.workload].join('|');

/** Cheapest first: overhead, then log bytes per transaction; a run with no measurement goes last. */
function byCost(a: PluginResult, b: PluginResult): number {
  const over = (a.overheadPct ?? Number.POSITIVE_INFINITY) - (b.overheadPct ?? Number.POSITIVE_INFINITY);
  if (over !== 0 && !Number.isNaN(over)) return over;
  return (a.logBytesPerTxn ?? Number.POSITIVE_INFINITY) - (b.logBytesPerTxn ?? Number.POSITIVE_INFINITY) || 0;
}

/** Plugins measured in two or more configurations on one server and workload, each ranked cheapest first. */
export function variantGroups(results: readonly PluginResult[]): VariantGroup[] {
  const groups = new Map<string, PluginResult[]>();
  for (const r of results) {
    if (!r.runId) continue;
    groups.set(groupKey(r), [...(groups.get(groupKey(r)) ?? []), r]);
  }
  return [...groups.values()]
    .filter((members) => members.length >= 2)
    .map((members) => {
      const first = members[0] as PluginResult;
      const most = Math.max(0, ...members.map((m) => m.logBytesPerTxn ?? 0));
      const rows = [...members].sort(byCost).map((m, i) => ({
        rank: i + 1,
        runId: m.runId ?? m.plugin,
        title: m.title,
        overheadPct: m.overheadPct,
        ci95: m.overheadCi95,
        verdict: m.verdict,
        logBytesPerTxn: m.logBytesPerTxn,
        logSharePct: m.logBytesPerTxn !== null && most > 0 ? (100 * m.logBytesPerTxn) / most : null,
      }));
      return {
        plugin: first.plugin,
        server: `${first.server.flavor} ${first.server.version.split('-')[0]} (${first.server.target})`,
        workload: first.workload,
        rows,
      };
    });
}

const overhead = (row: VariantRow) => estimateText(row.overheadPct, row.ci95, '%');

function cells(row: VariantRow): string[] {
  return [
    String(row.rank),
    row.runId,
    overhead(row),
    row.verdict,
    fixed(row.logBytesPerTxn, 0),
    row.logSharePct === null ? '–' : `${fixed(row.logSharePct, 0)}%`,
  ];
}

const HEAD = ['rank', 'run', 'overhead [95% CI]', 'verdict', 'log B/txn', 'of most'];

/** Per plugin, server and workload, its configurations ranked cheapest first. */
export function variantsContent(groups: readonly VariantGroup[]): SectionContent {
  return {
    tables: groups.map((g) => ({
      caption: `${g.plugin} on ${g.server}, ${g.workload}`,
      head: HEAD.map((text) => ({ text })),
      rows: g.rows.map(cells),
    })),
  };
}
