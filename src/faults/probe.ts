import mysql from 'mysql2/promise';
import { type MarkerNames, markerStatement } from '../completeness/markers.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import type { ConnectionOptions } from '../servers/started-server.ts';

/** One probe statement: a failing SELECT carrying marker n, which all four logs record (a missing table, 1146). */
export interface ProbeMark {
  n: number;
  sentMs: number;
  doneMs: number;
  /** The server answered 1146, as the statement is meant to get. */
  acked: boolean;
}

export interface Probe {
  marks: ProbeMark[];
  stop(): Promise<void>;
}

const ER_NO_SUCH_TABLE = 1146;
// A short pause keeps the probe from competing with sysbench for the 2 CPUs; gaps far longer than it are stalls.
const PAUSE_MS = 20;

/**
 * One connection sending `failed` markers back to back (numbered from `first`), recording when each was answered: the
 * longest gap between answers is how long an audited session waited.
 */
export function startProbe(
  conn: ConnectionOptions,
  names: MarkerNames,
  first = 1,
  clock: Clock = realClock,
): Probe {
  const marks: ProbeMark[] = [];
  let running = true;
  const loop = (async () => {
    const c = await mysql.createConnection({ ...conn, connectTimeout: 5_000 });
    try {
      for (let n = first; running; n++) {
        const sentMs = clock.nowMs();
        const acked = await c.query(markerStatement(names, 'failed', n)).then(
          () => false,
          (error: { errno?: number }) => error.errno === ER_NO_SUCH_TABLE,
        );
        marks.push({ n, sentMs, doneMs: clock.nowMs(), acked });
        await clock.sleepMs(PAUSE_MS);
      }
    } finally {
      await c.end().catch(() => c.destroy());
    }
  })();
  return {
    marks,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Longest time in [fromMs, toMs] with no answer: between answers, and from each end to the nearest answer. */
export function longestGapMs(doneMs: number[], fromMs: number, toMs: number): number {
  const inside = doneMs.filter((t) => t >= fromMs && t <= toMs).sort((a, b) => a - b);
  const points = [fromMs, ...inside, toMs];
  let longest = 0;
  for (let i = 1; i < points.length; i++)
    longest = Math.max(longest, (points[i] ?? 0) - (points[i - 1] ?? 0));
  return longest;
}

/** Marks sent within [fromMs, toMs). */
export const sentBetween = (marks: ProbeMark[], fromMs: number, toMs: number): ProbeMark[] =>
  marks.filter((m) => m.sentMs >= fromMs && m.sentMs < toMs);

/** The lines of `after` that follow the last line of `before` (an error-log tail read twice). */
export function newLines(before: string, after: string): string[] {
  const old = before.split('\n').filter(Boolean);
  const now = after.split('\n').filter(Boolean);
  const last = old.at(-1);
  if (last === undefined) return now;
  const at = now.lastIndexOf(last);
  return at === -1 ? now : now.slice(at + 1);
}
