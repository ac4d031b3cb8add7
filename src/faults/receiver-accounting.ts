import { findMarkers } from '../completeness/markers.ts';
import { type LogFormat, logParsers } from '../plugins/logs/index.ts';
import type { ProbeMark } from './probe.ts';

/** One of sysbench's per-second lines, placed on our clock by when it arrived (the end of its second). */
export interface TpsSample {
  atMs: number;
  tps: number;
}

const TPS = /\btps: (\d+(?:\.\d+)?)/;

/** The transactions per second of one of sysbench's `[ 5s ] thds: 4 tps: 812.03 …` lines; null for any other line. */
export function tpsOfLine(line: string): number | null {
  const match = TPS.exec(line);
  return match ? Number(match[1]) : null;
}

export type Phase = 'before' | 'during' | 'after';

/** One second of sysbench's throughput, by where it ends relative to the fault's start. */
export interface SecondRow {
  /** The end of the second, in whole seconds from the fault's start (negative before it). */
  fromFaultS: number;
  phase: Phase;
  tps: number;
}

/**
 * The samples as seconds around the fault [fromMs, toMs]: a second that ended by the fault's start is before, one that
 * began after its end is after, the rest (any overlap) during.
 */
export function secondsAround(samples: readonly TpsSample[], fromMs: number, toMs: number): SecondRow[] {
  return samples.map(({ atMs, tps }) => ({
    fromFaultS: Math.round((atMs - fromMs) / 1000),
    phase: atMs <= fromMs ? 'before' : atMs - 1000 >= toMs ? 'after' : 'during',
    tps,
  }));
}

/** The mean of one phase's seconds; null when the phase has none. */
export function meanTps(rows: readonly SecondRow[], phase: Phase): number | null {
  const of = rows.filter((r) => r.phase === phase);
  return of.length === 0 ? null : of.reduce((sum, r) => sum + r.tps, 0) / of.length;
}

/** The probe's marker ids in the order the receiver wrote their records (a record per id, repeats kept). */
export function markerSequence(text: string, format: LogFormat, tag: string): number[] {
  return logParsers[format](text).events.flatMap((event) => [...findMarkers([event], tag).failed.keys()]);
}

/** What the receiver kept of the markers the server answered. */
export interface SequenceAccount {
  sent: number;
  /** Answered, and in no record. */
  lost: number;
  /** Records beyond the first of an id. */
  duplicated: number;
  /** First records of an id written after a record of a higher id. */
  outOfOrder: number;
}

/**
 * Accounts the receiver's sequence of marker ids (file order) against the ids sent and answered (sending order,
 * ascending, as the probe numbers them). Ids in the file that were not answered are left out: a statement the
 * server did not answer may or may not have been audited.
 */
export function accountSequence(sent: readonly number[], seen: readonly number[]): SequenceAccount {
  const wanted = new Set(sent);
  const copies = new Map<number, number>();
  let highest = Number.NEGATIVE_INFINITY;
  let outOfOrder = 0;
  for (const n of seen) {
    if (!wanted.has(n)) continue;
    const before = copies.get(n) ?? 0;
    copies.set(n, before + 1);
    if (before > 0) continue;
    if (n < highest) outOfOrder++;
    highest = Math.max(highest, n);
  }
  let duplicated = 0;
  for (const count of copies.values()) duplicated += count - 1;
  return { sent: wanted.size, lost: wanted.size - copies.size, duplicated, outOfOrder };
}

/**
 * When records flowed again after the fault ended (`toMs`): the answer time of the first answered marker at or after
 * it from which on every answered marker has a record; null when none has (the stage ended unrecovered).
 */
export function recoveredAtMs(
  marks: readonly ProbeMark[],
  kept: ReadonlySet<number>,
  toMs: number,
): number | null {
  const answered = marks.filter((m) => m.acked);
  let at: number | null = null;
  for (const m of answered) {
    if (!kept.has(m.n)) at = null;
    else if (at === null && m.doneMs >= toMs) at = m.doneMs;
  }
  return at;
}

/** The longest wait of the probe's audited statement in [fromMs, toMs]: a statement sent and not yet answered counts. */
export function longestStallMs(
  marks: readonly { sentMs: number; doneMs: number }[],
  fromMs: number,
  toMs: number,
): number {
  let longest = 0;
  for (const m of marks) {
    const from = Math.max(m.sentMs, fromMs);
    const to = Math.min(m.doneMs, toMs);
    if (to > from) longest = Math.max(longest, to - from);
  }
  return longest;
}
