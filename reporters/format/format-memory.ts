import type { PluginResult } from '../../src/results/schema.ts';

/**
 * The server's resident memory with the plugin off and on, in one line; null where the measurement did not read it.
 * The change is what switching the plugin on adds while it runs: what it allocates at install is in both arms.
 */
export function memoryLine(r: PluginResult): string | null {
  const memory = r.measurement?.memory;
  if (!memory?.measured) return null;
  // A change under 0.05 MiB prints as 0.0, not −0.0.
  const change =
    Math.abs(memory.changeMiB) < 0.05
      ? '0.0'
      : `${memory.changeMiB > 0 ? '+' : '−'}${Math.abs(memory.changeMiB).toFixed(1)}`;
  return `server memory (RSS) ${memory.offMiB.toFixed(0)} MiB off, ${memory.onMiB.toFixed(0)} MiB on (${change} MiB, median of ${memory.samples} samples under load)`;
}
