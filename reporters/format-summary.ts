import Table from 'cli-table3';
import { observedOf } from '../src/results/aggregate.ts';
import type { PluginResult } from '../src/results/schema.ts';

const yesNo = (value: boolean | undefined): string => (value === undefined ? '?' : value ? 'yes' : 'no');
const fixed = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

function overheadCell(result: PluginResult): string {
  if (result.overheadPct === null) return '–';
  const ci = result.overheadCi95
    ? ` [${fixed(result.overheadCi95[0])}, ${fixed(result.overheadCi95[1])}]`
    : '';
  return `${fixed(result.overheadPct)}%${ci}`;
}

const noiseCell = (result: PluginResult): string =>
  result.noiseFloorPct === null
    ? '–'
    : `±${fixed(result.noiseFloorPct)} (≥${fixed(result.minDetectablePct)})`;

function lifecycleCell(result: PluginResult): string {
  const failed = result.lifecycle.filter((c) => !c.ok).map((c) => c.check);
  return failed.length === 0 ? `${result.lifecycle.length} ok` : `failed: ${failed.join(', ')}`;
}

/** Row facts in the spirit of the seed report's conclusion. */
function facts(result: PluginResult) {
  const rotation = observedOf(result, 'rotation') as { rotatedFiles?: number[] } | undefined;
  const failed = observedOf(result, 'failed-queries') as number[] | undefined;
  const uninstall = observedOf(result, 'uninstall') as { needsRestart?: boolean } | undefined;
  return {
    rotates: rotation?.rotatedFiles ? rotation.rotatedFiles.length > 0 : undefined,
    logsFailed: Array.isArray(failed) ? failed.length > 0 : undefined,
    uninstallRestart: uninstall?.needsRestart,
  };
}

/** The terminal summary: one row per plugin × server × workload. */
export function formatSummary(results: PluginResult[]): string {
  const table = new Table({
    head: [
      'plugin',
      'server',
      'workload',
      'baseline tps',
      'plugin tps',
      'overhead % [95% CI]',
      'A/A noise ± % (detectable)',
      'limit %',
      'verdict',
      'log MB/min',
      'bytes/txn',
      'rotates?',
      'logs failed queries?',
      'uninstall needs restart?',
      'lifecycle',
    ],
    style: { head: [], border: [] },
  });
  for (const r of results) {
    const f = facts(r);
    table.push([
      r.title,
      `${r.server.flavor} ${r.server.version} (${r.server.target})`,
      r.workload,
      fixed(r.baselineTps),
      fixed(r.pluginTps),
      overheadCell(r),
      noiseCell(r),
      fixed(r.limitPct, 0),
      r.verdict,
      fixed(r.measurement?.logMbPerMin),
      fixed(r.logBytesPerTxn, 0),
      yesNo(f.rotates),
      yesNo(f.logsFailed),
      yesNo(f.uninstallRestart),
      lifecycleCell(r),
    ]);
  }
  return table.toString();
}
