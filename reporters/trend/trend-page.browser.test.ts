import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { expect, test } from 'vitest';
import type { HistoryEntry } from '../../src/history/entry.ts';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { sampleIdentity } from '../../test/support/sample-identity.ts';
import { trendPage } from './trend-page.ts';

// Debian's chromium; Playwright's own browser download cannot be fetched here.
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

const counted = (pct: number) => ({
  identity: sampleIdentity(),
  instructionsPct: pct,
  instructionsPctCi95: [pct - 0.2, pct + 0.2] as [number, number],
  instructionsAddedPerTx: 1000,
  writeCallsAddedPerTx: 30,
  logBytesNetAddedPerTx: 900,
  eventsPerTx: 20,
});

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
    runId: `r${i}`,
    configRun: run as string,
    commit: `${i}`.repeat(40),
    recordedAt: `2026-12-0${i + 1}T10:00:00.000Z`,
    fingerprint: fingerprint as string,
    overheadPct: pct as number,
    overheadCi95: [(pct as number) - 2, (pct as number) + 2],
    counted: instructions === null ? null : counted(instructions as number),
  }),
);

test('the trend page in Chromium: a section and a wall-clock chart per run, series by fingerprint, counts across runners, escaped', async (context) => {
  if (!existsSync(CHROMIUM))
    context.skip(`${CHROMIUM} not found: apt-get install -y chromium to run this test`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-trend-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const file = path.join(dir, 'index.html');
    await writeFile(file, await trendPage(history));
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
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
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
