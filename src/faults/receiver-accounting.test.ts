import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import {
  accountSequence,
  longestStallMs,
  markerSequence,
  meanTps,
  recoveredAtMs,
  secondsAround,
  tpsOfLine,
} from './receiver-accounting.ts';

/** The long way: each quantity counted on its own, for the table below. */
function naiveAccount(sent: number[], seen: number[]) {
  const kept = seen.filter((n) => sent.includes(n));
  const lost = sent.filter((n) => !kept.includes(n)).length;
  const duplicated = kept.length - new Set(kept).size;
  let outOfOrder = 0;
  kept.forEach((n, i) => {
    const first = kept.indexOf(n) === i;
    if (first && kept.slice(0, i).some((m) => m > n)) outOfOrder++;
  });
  return { sent: sent.length, lost, duplicated, outOfOrder };
}

describe('accountSequence', () => {
  test.for([
    ['every record once, in order', [1, 2, 3, 4], [1, 2, 3, 4], { lost: 0, duplicated: 0, outOfOrder: 0 }],
    [
      'a gap: 3 and 4 lost while the receiver was dead',
      [1, 2, 3, 4, 5],
      [1, 2, 5],
      { lost: 2, duplicated: 0, outOfOrder: 0 },
    ],
    ['a record written twice', [1, 2, 3], [1, 2, 2, 3], { lost: 0, duplicated: 1, outOfOrder: 0 }],
    [
      'two records swapped: one out of order',
      [1, 2, 3, 4],
      [1, 3, 2, 4],
      { lost: 0, duplicated: 0, outOfOrder: 1 },
    ],
    [
      'a late repeat of an early id is a duplicate, not out of order',
      [1, 2, 3],
      [1, 2, 3, 1],
      { lost: 0, duplicated: 1, outOfOrder: 0 },
    ],
    [
      'ids never answered (another run, the bursts) are left out',
      [5, 6],
      [1, 5, 900, 6],
      { lost: 0, duplicated: 0, outOfOrder: 0 },
    ],
    ['nothing kept', [1, 2], [], { lost: 2, duplicated: 0, outOfOrder: 0 }],
  ] as const)('%s', ([, sent, seen, want]) => {
    const got = accountSequence([...sent], [...seen]);
    expect(got).toEqual({ sent: sent.length, ...want });
    expect(got).toEqual(naiveAccount([...sent], [...seen]));
  });
});

describe('recoveredAtMs', () => {
  const mark = (n: number, doneMs: number, acked = true) => ({ n, sentMs: doneMs - 5, doneMs, acked });
  const marks = [mark(1, 100), mark(2, 200), mark(3, 300), mark(4, 400), mark(5, 500)];
  test.for([
    ['kept throughout: the first answer after the fault', [1, 2, 3, 4, 5], 250, 300],
    ['lost until 3: from 3 on', [1, 3, 4, 5], 150, 300],
    ['a loss after a kept one moves the recovery on', [1, 2, 4, 5], 150, 400],
    ['the last answered marker lost: not recovered', [1, 2, 3, 4], 150, null],
  ] as const)('%s', ([, kept, toMs, want]) => {
    expect(recoveredAtMs(marks, new Set(kept), toMs)).toBe(want);
  });

  test('an unanswered marker neither breaks nor makes the recovery', () => {
    const marks = [mark(1, 100), mark(2, 200, false), mark(3, 300)];
    expect(recoveredAtMs(marks, new Set([1, 3]), 150)).toBe(300);
  });
});

describe('longestStallMs', () => {
  test.for([
    [
      'answers every 25 ms',
      [
        [0, 5],
        [25, 30],
        [50, 55],
      ],
      0,
      100,
      5,
    ],
    [
      'one statement held 5 s by a paused receiver',
      [
        [0, 5],
        [25, 5_040],
        [5_060, 5_065],
      ],
      0,
      6_000,
      5_015,
    ],
    ['clipped to the window', [[0, 9_000]], 1_000, 4_000, 3_000],
    ['outside the window', [[0, 500]], 1_000, 4_000, 0],
  ] as const)('%s', ([, spans, from, to, want]) => {
    const marks = spans.map(([sentMs, doneMs]) => ({ sentMs, doneMs }));
    expect(longestStallMs(marks, from, to)).toBe(want);
  });
});

describe("sysbench's seconds around the fault", () => {
  test('tps of a per-second line; other lines are not', () => {
    expect(
      tpsOfLine(
        '[ 7s ] thds: 4 tps: 812.03 qps: 16240.55 (r/w/o: 11368.39/3248.11/1624.06) lat (ms,95%): 7.98 err/s: 0.00 reconn/s: 0.00',
      ),
    ).toBe(812.03);
    expect(tpsOfLine('Threads started!')).toBeNull();
  });

  test('a second is before, during (any overlap) or after the fault', () => {
    const samples = [1_000, 2_000, 3_000, 4_000, 5_000, 6_000].map((atMs, i) => ({ atMs, tps: i * 10 }));
    const rows = secondsAround(samples, 2_000, 4_500);
    expect(rows.map((r) => [r.fromFaultS, r.phase])).toEqual([
      [-1, 'before'],
      [0, 'before'],
      [1, 'during'],
      [2, 'during'],
      [3, 'during'],
      [4, 'after'],
    ]);
    expect(meanTps(rows, 'before')).toBe(5);
    expect(meanTps(rows, 'after')).toBe(50);
    expect(meanTps([], 'during')).toBeNull();
  });
});

/** A receiver fault as recorded by the faults suite (fixtures/receiver-faults/SOURCES.md). */
interface RecordedFault {
  tag: string;
  window: { fromMs: number; toMs: number };
  samples: { atMs: number; tps: number }[];
  marks: { n: number; sentMs: number; doneMs: number; acked: boolean }[];
  receiverLines: string[];
}

const recorded = async (name: string): Promise<RecordedFault> =>
  JSON.parse(await readFile(new URL(`../../fixtures/receiver-faults/${name}.json`, import.meta.url), 'utf8'));

/** The row's figures from the recorded inputs, as receiverFault computes them. */
function figures(f: RecordedFault) {
  const seen = markerSequence(`${f.receiverLines.join('\n')}\n`, 'server_audit_syslog', f.tag);
  const account = accountSequence(
    f.marks.filter((m) => m.acked).map((m) => m.n),
    seen,
  );
  const rows = secondsAround(f.samples, f.window.fromMs, f.window.toMs);
  const recovered = recoveredAtMs(f.marks, new Set(seen), f.window.toMs);
  return {
    ...account,
    stallMs: longestStallMs(f.marks, f.window.fromMs, f.window.toMs + 4_000),
    tps: (['before', 'during', 'after'] as const).map((p) => Math.round(meanTps(rows, p) ?? -1)),
    zeroSeconds: rows.filter((r) => r.tps === 0).length,
    recoverMs: recovered === null ? null : recovered - f.window.toMs,
  };
}

describe('recorded receiver faults (the figures the suite printed)', () => {
  test('paused 5 s: every session waits it out, sysbench at 0 for five seconds, nothing lost', async () => {
    const got = figures(await recorded('receiver-paused'));
    expect(got).toMatchObject({ sent: 300, lost: 0, duplicated: 0, outOfOrder: 0, tps: [285, 92, 317] });
    expect(got.zeroSeconds).toBe(5);
    expect(got.stallMs).toBeGreaterThan(4_900);
    expect(got.recoverMs).toBeLessThan(100);
  });

  test('killed for 3 s: no wait, the records of those seconds lost, back with the new receiver', async () => {
    const got = figures(await recorded('receiver-killed'));
    expect(got).toMatchObject({ sent: 425, lost: 131, duplicated: 0, outOfOrder: 0, zeroSeconds: 0 });
    expect(got.stallMs).toBeLessThan(100);
    expect(got.recoverMs).toBeLessThan(100);
  });
});
