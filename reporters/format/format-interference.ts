import type { Interference } from '../../src/machine/block-interference.ts';
import type { PluginResult } from '../../src/results/schema.ts';

const where = (r: PluginResult) =>
  `${r.title} · ${r.server.flavor} ${r.server.version} (${r.server.target}) · ${r.workload}`;

/** The measurement's figures, or the A/A calibration's when only that ran. */
const interferenceOf = (r: PluginResult): Interference | undefined =>
  r.measurement?.interference ?? r.calibration?.interference;

/** Appended to a verdict cell (short, the terminal column is narrow): other processes used the CPUs meanwhile. */
export function interferenceMark(result: PluginResult): string {
  const flagged = result.measurement?.interference?.flagged || result.calibration?.interference?.flagged;
  return flagged ? ' (busy)' : '';
}

/**
 * Lines for the summaries: each result measured under interference with the figures that flagged it, then
 * auditbench's own CPU during measurement (the sampler, log polling, Vitest), worst result first.
 */
export function interferenceLines(results: readonly PluginResult[]): string[] {
  const flagged = results.flatMap((r) => {
    const lines: string[] = [];
    if (r.calibration?.interference?.flagged)
      lines.push(`${where(r)}: A/A ${r.calibration.interference.reason}`);
    if (r.measurement?.interference?.flagged) lines.push(`${where(r)}: ${r.measurement.interference.reason}`);
    return lines;
  });
  const selfPct = results.flatMap((r) => {
    const i = interferenceOf(r);
    return i ? [i.selfCpuPct] : [];
  });
  if (selfPct.length === 0) return flagged;
  const own = `auditbench's own CPU while measuring: at most ${Math.max(...selfPct).toFixed(1)}% of a core`;
  const clean = flagged.length === 0 ? ['no result was measured under interference'] : [];
  return [...flagged, ...clean, own];
}
