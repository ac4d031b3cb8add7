import { expect, test } from 'vitest';
import { compareDesigns, type DesignRun, formatDesignComparison } from './design-comparison.ts';
import { pairedOverhead } from './paired-overhead.ts';
import { createRng } from './random.ts';

// Null controls built from pairs with a known spread: each design's runs, in two conditions.
function run(condition: string, design: string, seed: number, shift = 0, tau = 0): DesignRun {
  const rng = createRng(seed);
  const pairs = Array.from({ length: 12 }, () => ({
    offTps: 1000,
    onTps: 1000 * Math.exp(shift + rng.normal(0, 0.02)),
  }));
  const estimate = pairedOverhead(pairs, { runToRunSdLog: tau });
  if (estimate.ci95 === null) throw new Error('no interval');
  return {
    condition,
    design: `A/A · ${design}`,
    segmentDesign: design,
    ci95Pct: estimate.ci95,
    estimatePct: estimate.estimatePct,
    pairs: 12,
    measuredS: design === 'today' ? 48 : 49,
    wallS: 60,
    runToRunSdLog: tau,
  };
}

const runs = [
  ...[1, 2, 3, 4].map((k) => run('quiet', 'today', k)),
  ...[5, 6, 7, 8].map((k) => run('quiet', 'aligned', k, 0, 0.009)),
  ...[9, 10, 11, 12].map((k) => run('load', 'today', k, k % 2 === 0 ? 0.05 : -0.05)),
];

test('a cell per condition and design, then each design over every condition', () => {
  const cells = compareDesigns(runs);
  expect(cells.map((c) => `${c.condition}/${c.segmentDesign}/${c.runs}`)).toEqual([
    'quiet/today/4',
    'quiet/aligned/4',
    'load/today/4',
    'all/today/8',
    'all/aligned/4',
  ]);
});

test('the within-run half-width leaves out the τ an interval carried, and scales to a minute as 1/√t', () => {
  const [quietToday, quietAligned] = compareDesigns(runs);
  const half = (r: DesignRun) => (r.ci95Pct[1] - r.ci95Pct[0]) / 2;
  const todayMean = runs.slice(0, 4).reduce((s, r) => s + half(r), 0) / 4;
  expect(quietToday?.withinHalfWidthPp).toBeCloseTo(todayMean, 6);
  expect(quietToday?.perMeasuredMinutePp).toBeCloseTo(todayMean * Math.sqrt(48 / 60), 6);
  expect(quietToday?.perWallMinutePp).toBeCloseTo(todayMean, 6);
  // Same seeds' spread, but τ 0.009 was in these intervals: taken out, they are as narrow as 12 pairs of sd 0.02 say.
  expect(quietAligned?.withinHalfWidthPp).toBeLessThan(half(runs[4] as DesignRun));
  expect(quietAligned?.withinHalfWidthPp).toBeGreaterThan(0.8);
  expect(quietAligned?.withinHalfWidthPp).toBeLessThan(1.8);
});

test('runs shifted ±5% apart give a τ near 0.05, and their intervals with it contain 0', () => {
  const load = compareDesigns(runs).find((c) => c.condition === 'load');
  expect(load?.tau).toBeGreaterThan(0.04);
  expect(load?.tau).toBeLessThan(0.07);
  expect(load?.withTauContaining).toBe(4);
  expect(load?.withTauHalfWidthPp).toBeGreaterThan(load?.withinHalfWidthPp ?? Number.POSITIVE_INFINITY);
});

test('formats one line per cell', () => {
  const lines = formatDesignComparison(compareDesigns(runs)).split('\n');
  expect(lines).toHaveLength(5);
  expect(lines[0]).toMatch(
    /^quiet · today: 4 runs \(12\.0 pairs, 60 s each\): within-run half-width \d\.\d\d pp, \d\.\d\d pp per measured minute, \d\.\d\d pp per wall minute; estimates sd \d\.\d\d pp, τ \d\.\d{4}; with τ \d\/4 contain 0 \(95% \[\d+%, \d+%\]\), half-width \d\.\d\d pp$/,
  );
});
