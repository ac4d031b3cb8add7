import type { PluginResult } from '../../src/results/schema.ts';
import { runIdOf } from './run-status.ts';
import type { SectionContent } from './section.ts';

/** '+10.5', '−2.0'; a change under 0.05 MiB prints as 0.0, not −0.0. */
const changeText = (changeMiB: number): string =>
  Math.abs(changeMiB) < 0.05 ? '0.0' : `${changeMiB > 0 ? '+' : '−'}${Math.abs(changeMiB).toFixed(1)}`;

/**
 * The server's resident memory with the plugin off and on, in one line; null where the measurement did not read it.
 * The change is what switching the plugin on adds while it runs: what it allocates at install is in both arms.
 */
export function memoryLine(r: PluginResult): string | null {
  const memory = r.measurement?.memory;
  if (!memory?.measured) return null;
  return `server memory (RSS) ${memory.offMiB.toFixed(0)} MiB off, ${memory.onMiB.toFixed(0)} MiB on (${changeText(memory.changeMiB)} MiB, median of ${memory.samples} samples under load)`;
}

/** The results whose measurement tried to read the server's memory. */
export const memoryResults = (results: readonly PluginResult[]): PluginResult[] =>
  results.filter((r) => r.measurement?.memory !== undefined);

const HEAD = ['result id', 'off MiB', 'on MiB', 'change MiB', 'peak MiB', 'samples'];

/** A row per result that read the server's memory, so configurations compare side by side; a line per one that could not. */
export function memoryContent(results: readonly PluginResult[]): SectionContent {
  const rows: string[][] = [];
  const unread: string[] = [];
  for (const r of memoryResults(results)) {
    const memory = r.measurement?.memory;
    if (!memory) continue;
    if (!memory.measured) unread.push(`${runIdOf(r)}: not read: ${memory.reason}`);
    else
      rows.push([
        runIdOf(r),
        memory.offMiB.toFixed(1),
        memory.onMiB.toFixed(1),
        changeText(memory.changeMiB),
        memory.maxMiB.toFixed(1),
        String(memory.samples),
      ]);
  }
  return {
    about: [
      'The server’s resident memory (VmRSS), the median of samples taken under load in each arm. The change is what switching the plugin on adds while it runs: what it allocates at install is in both arms.',
    ],
    tables: rows.length > 0 ? [{ head: HEAD.map((text) => ({ text })), rows }] : [],
    list: unread,
  };
}
