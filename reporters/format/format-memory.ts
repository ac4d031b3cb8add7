import type { PluginResult } from '../../src/results/schema.ts';

/**
 * The server's resident memory with the plugin off and on, in one line; null where the measurement did not read it.
 * The change is what switching the plugin on adds while it runs: what it allocates at install is in both arms.
 */
export function memoryLine(r: PluginResult): string | null {
  const memory = r.measurement?.memory;
  if (!memory?.measured) return null;
  const sign = memory.changeMiB >= 0 ? '+' : '−';
  return `server memory (RSS) ${memory.offMiB.toFixed(0)} MiB off, ${memory.onMiB.toFixed(0)} MiB on (${sign}${Math.abs(memory.changeMiB).toFixed(1)} MiB, median of ${memory.samples} samples under load)`;
}
