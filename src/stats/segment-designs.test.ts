import { expect, test } from 'vitest';
import type { RecordedTrace } from './allan-traces.ts';
import { createRng } from './random.ts';
import {
  alignedDesign,
  alignedQuadsDesign,
  compareDesigns,
  formatDesigns,
  todayDesign,
} from './segment-designs.ts';

// White noise (2% per second) around 800 TPS: no wander, so shorter segments win by their count of pairs alone.
function whiteTraces(runs: number, lengthS: number): RecordedTrace[] {
  const rng = createRng(11);
  return Array.from({ length: runs }, (_, i) => ({
    name: `white-${i}`,
    condition: 'white',
    tpsPerSecond: Array.from({ length: lengthS }, () => 800 * Math.exp(rng.normal(0, 0.02))),
  }));
}

test('on white noise, 1 s aligned segments are narrower than today’s 3 s design in the same window, and both cover', () => {
  const [today, aligned1] = compareDesigns(whiteTraces(60, 48), {
    windowS: 48,
    effectPct: 10,
    designs: [todayDesign, alignedDesign(1)],
  });
  expect(today?.pairs).toBe(8);
  expect(aligned1?.pairs).toBe(24);
  expect(today?.windows).toBe(120);
  expect(aligned1?.meanHalfWidthPp ?? 99).toBeLessThan(0.8 * (today?.meanHalfWidthPp ?? 0));
  for (const outcome of [today, aligned1]) {
    expect(outcome?.nullCoverage ?? 0).toBeGreaterThan(0.88);
    // Today's design mixes nothing (the switch's second is dropped); the aligned one mixes 5 ms a switch.
    expect(outcome?.effectEstimatePct ?? 0).toBeGreaterThan(9);
  }
});

test('the table has one row per condition and design, with the coverage’s Wilson interval', () => {
  const outcomes = compareDesigns(whiteTraces(4, 48), { windowS: 48, effectPct: 10 });
  expect(outcomes.map((o) => o.design.label)).toEqual([
    'today: 3 s, switch second dropped',
    'aligned: 3 s, none dropped',
    'aligned: 2 s, none dropped',
    'aligned: 1 s, none dropped',
    'aligned: 1 s, ABBA quads as units',
  ]);
  const table = formatDesigns(outcomes, 10);
  expect(table.split('\n')).toHaveLength(7);
  expect(table).toMatch(/\| white \| aligned: 1 s, none dropped \| 24 \| 8 \| \d+% \[\d+%, \d+%\] \|/);
});

test('a window too short for two pairs is refused with the fix', () => {
  expect(() => compareDesigns(whiteTraces(1, 48), { windowS: 10, effectPct: 10 })).toThrow(
    'A 10 s window holds fewer than 2 pairs of 3 s segments: give --window of at least 12',
  );
});

test('a drift that is linear over 4 s cancels inside an ABBA quad, not inside a pair', () => {
  // 1% faster every second, plus 0.2% white noise: each ABBA pair carries the drift with alternating sign.
  const rng = createRng(5);
  const drifting: RecordedTrace[] = Array.from({ length: 20 }, (_, i) => ({
    name: `drift-${i}`,
    condition: 'drift',
    tpsPerSecond: Array.from({ length: 48 }, (_, t) => 800 * Math.exp(0.01 * t + rng.normal(0, 0.002))),
  }));
  const [pairs, quads] = compareDesigns(drifting, {
    windowS: 48,
    effectPct: 10,
    designs: [alignedDesign(1), alignedQuadsDesign(1)],
  });
  expect(quads?.meanHalfWidthPp ?? 99).toBeLessThan(0.5 * (pairs?.meanHalfWidthPp ?? 0));
  expect(quads?.nullCoverage ?? 0).toBeGreaterThan(0.9);
  expect(quads?.effectEstimatePct ?? 0).toBeGreaterThan(9.5);
});
