import { addInto, type LatencyHistogram, type LatencySlot } from '../stats/latency-histogram.ts';

export type { LatencySlot };

/** Wall-clock length of one slot the Lua wrapper counts in (SLOT_MS in latency-wrapper.lua). */
export const LATENCY_SLOT_MS = 200;

/** Per-slot latency counts of one sysbench run, or why there are none. */
export type RunLatency = { ok: true; slots: LatencySlot[] } | { ok: false; reason: string };

const PREFIX = 'auditbench-latency ';
// e.g. auditbench-latency 3 1796137479000 92:8 84:5 80:1
const LINE = /^auditbench-latency (\d+) (\d+)((?: \d+:\d+)+)$/;

/**
 * Reads the lines src/workload/latency-wrapper.lua prints at each thread's end and merges threads slot by slot,
 * slots in time order. A run that printed none (a script with its own thread_run, a crash before the end) says so.
 */
export function parseLatencyLines(stdout: string): RunLatency {
  const bySlot = new Map<number, LatencyHistogram>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(PREFIX)) continue;
    const match = LINE.exec(line.trimEnd());
    if (!match)
      return { ok: false, reason: `a latency line is not in the wrapper's format (cut short?): ${line}` };
    const startMs = Number(match[2]);
    const counts = new Map<number, number>();
    for (const pair of (match[3] ?? '').trim().split(' ')) {
      const [bucket, count] = pair.split(':').map(Number) as [number, number];
      counts.set(bucket, (counts.get(bucket) ?? 0) + count);
    }
    const slot = bySlot.get(startMs);
    bySlot.set(startMs, slot ? addInto(slot, counts) : counts);
  }
  if (bySlot.size === 0) {
    return {
      ok: false,
      reason: 'sysbench printed no latency lines (does the script call event() through sysbench’s own loop?)',
    };
  }
  const slots = [...bySlot.entries()]
    .sort(([a], [b]) => a - b)
    .map(([startMs, counts]) => ({ startMs, counts }));
  return { ok: true, slots };
}
