import { expect, test } from 'vitest';
import type { HistoryEntry } from '../../src/history/entry.ts';
import { inChromium, noChromium } from '../../test/support/offline-page.ts';
import { sampleCounted, sampleEntry } from '../../test/support/sample-entry.ts';
import { trendPage } from './trend-page.ts';

const counted = sampleCounted;

// Two runs; `events` on two machine fingerprints (this VM, and a GitHub runner with a hostile name), counted on both.
const here = 'AMD EPYC ×2, 24 GiB';
const runner = 'EPYC 7763 <img src=x onerror=alert(1)> ×4, 16 GiB';
const history: HistoryEntry[] = [
  ['events', here, 10, 3.1],
  ['events', runner, 14, 3.2],
  ['events', here, 11, 3.0],
  ['events', runner, 15, 6.9],
  ['ops-cnf', here, 4, null],
].map(([run, fingerprint, pct, instructions], i) =>
  sampleEntry({
    invocationId: `r${i}`,
    runId: run as string,
    commit: `${i}`.repeat(40),
    recordedAt: `2026-12-0${i + 1}T10:00:00.000Z`,
    fingerprint: fingerprint as string,
    overheadPct: pct as number,
    overheadCi95: [(pct as number) - 2, (pct as number) + 2],
    counted: instructions === null ? null : counted(instructions as number),
  }),
);

test('the trend page in Chromium: a section and a wall-clock chart per run, series by fingerprint, counts across runners, escaped', async (context) => {
  const missing = noChromium();
  if (missing) context.skip(missing);
  await inChromium(await trendPage(history), null, async (page, problems) => {
    expect(problems).toEqual([]);
    expect(await page.locator('section.run h2').allTextContents()).toEqual(['events', 'ops-cnf']);
    const events = page.locator('section.run[data-run="events"]');
    // One wall-clock chart per run; the counted one where the run was counted.
    expect(await page.locator('figure.wall-clock svg').count()).toBe(2);
    expect(await page.locator('figure.counted svg').count()).toBe(1);
    // The wall clock: one line per fingerprint (only one fingerprint's figures compare), both named in its legend.
    const wall = events.locator('figure.wall-clock');
    expect(await wall.locator('.mark-line path').count()).toBe(2);
    // Each fingerprint in full (a CPU model is long), the hostile one drawn as its text.
    expect(await wall.locator('.role-legend-label text').allTextContents()).toEqual([here, runner]);
    // The counts: one line through every runner's entries, a point for each of the four.
    const countedChart = events.locator('figure.counted');
    expect(await countedChart.locator('.mark-line path').count()).toBe(1);
    expect(await countedChart.locator('.mark-symbol.role-mark path').count()).toBe(4);
    // The rise at the fourth entry is marked where the history check fails it, its counts across machines.
    expect(await events.locator('tr.failed td').first().textContent()).toBe('✗ counted');
    // The hostile fingerprint is text, not an element: no img, nothing run.
    expect(await page.locator('img').count()).toBe(0);
    expect(await events.locator('td', { hasText: 'onerror' }).count()).toBe(2);
  });
}, 60_000);
