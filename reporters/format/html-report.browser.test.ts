import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { inChromium, noChromium } from '../../test/support/offline-page.ts';
import {
  countedReportInput,
  recordedReportInput,
  sweepReportInput,
  threadsSweepReportInput,
} from '../../test/support/report-fixtures.ts';
import { buildHtmlReport, type HtmlReportInput } from './html-report.ts';

// The marks each chart must have drawn (Vega's SVG renderer: one group per mark, class mark-<type>).
const MARKS = {
  overview: ['.mark-rule line', '.mark-symbol path', '.mark-rect path'],
  timeline: ['.mark-rect path', '.mark-line path'],
  overhead: ['.mark-rule line', '.mark-symbol path', '.mark-text text'],
  trend: ['.mark-rule line', '.mark-line path', '.mark-symbol path'],
  'counted-functions': ['.mark-rect path'],
};

/** index.html for `input`, opened in Chromium (test/support/offline-page.ts). */
const reportInChromium = async (
  input: HtmlReportInput,
  viewport: { width: number; height: number } | null,
  check: (page: Page, problems: string[]) => Promise<void>,
): Promise<void> => inChromium(await buildHtmlReport(input), viewport, check);

test('index.html renders in headless Chromium: no console error, no request, every chart has marks', async (context) => {
  const missing = noChromium();
  if (missing) context.skip(missing);
  await reportInChromium(recordedReportInput(), null, async (page, problems) => {
    const counts = await page.$$eval(
      'figure.chart:not([data-empty])',
      (figures, marks) =>
        figures.map((figure) => {
          const name = figure.getAttribute('data-chart') as keyof typeof marks;
          const box = figure.querySelector('svg')?.getBoundingClientRect();
          return {
            name,
            visible: Boolean(box && box.width > 100 && box.height > 50),
            marks: marks[name].map((selector) => figure.querySelectorAll(`svg ${selector}`).length),
          };
        }),
      MARKS,
    );
    expect(problems).toEqual([]);
    expect(counts.map((c) => c.name)).toEqual(['overview', 'timeline', 'overhead', 'trend']);
    for (const chart of counts) {
      expect(chart.visible, `${chart.name} is drawn at a readable size`).toBe(true);
      expect(
        chart.marks.every((n) => n > 0),
        `${chart.name} marks ${MARKS[chart.name].join(', ')}`,
      ).toBe(true);
    }
    expect(await page.locator('figure.chart[data-empty]').count()).toBe(3);
    // The overview comes first: its chart, then the seed's table (nine measures), whole within the window.
    expect(await page.locator('section').first().locator('h2').textContent()).toBe('Overview');
    const table = await page
      .locator('section')
      .first()
      .locator('table', { hasText: "The seed's comparison" })
      .evaluate((t) => ({
        rows: t.querySelectorAll('tbody tr').length,
        right: t.getBoundingClientRect().right,
        viewport: t.ownerDocument.documentElement.clientWidth,
      }));
    expect(table.rows).toBe(9);
    expect(table.right).toBeLessThanOrEqual(table.viewport);
  });
}, 60_000);

test('a sweep in Chromium: the overview labels runs by id, counts a failed lifecycle as a failure, and every table fits', async (context) => {
  const missing = noChromium();
  if (missing) context.skip(missing);
  await reportInChromium(sweepReportInput(), { width: 800, height: 900 }, async (page, problems) => {
    expect(problems).toEqual([]);
    const overview = page.locator('section').first();
    expect(await overview.locator('p').first().textContent()).toMatch(
      /^4 runs: 2 pass, 2 fail \(incl-users-app: 4 lifecycle checks failed .*; ddl-dcl-from-cnf: measured an idle plugin\)\.$/,
    );
    // The y axis of the ranked chart: Vega draws each label as a text element of the axis.
    const labels = await overview
      .locator('figure[data-chart="overview"] .role-axis-label text')
      .allTextContents();
    expect(labels.filter((l) => !/^−?\d+$/.test(l)).sort()).toEqual([
      'ddl-dcl-from-cnf',
      'dml-no-select',
      'incl-users-app',
      'server_audit',
    ]);
    const legend = await overview
      .locator('table:has(caption:text-is("Runs"))')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('th')?.textContent));
    expect(legend).toEqual(['server_audit', 'incl-users-app', 'ddl-dcl-from-cnf', 'dml-no-select']);
    const tables = await page.locator('table').evaluateAll((all) =>
      all.map((t) => ({
        caption: t.querySelector('caption')?.textContent,
        right: t.getBoundingClientRect().right,
        viewport: t.ownerDocument.documentElement.clientWidth,
      })),
    );
    for (const t of tables) expect(t.right, `${t.caption} fits the page`).toBeLessThanOrEqual(t.viewport);
    expect(
      await overview.locator('table', { hasText: "The seed's comparison" }).locator('thead th').count(),
    ).toBe(5);
  });
}, 60_000);

test('a threads sweep in Chromium: overhead and p99 change against threads drawn with intervals and points (the open loop a series of its own, legends uncut), one table row per point, the tail-latency table fits', async (context) => {
  const missing = noChromium();
  if (missing) context.skip(missing);
  await reportInChromium(threadsSweepReportInput(), { width: 800, height: 900 }, async (page, problems) => {
    expect(problems).toEqual([]);
    for (const name of ['sweep', 'latency']) {
      const chart = await page.locator(`figure.chart[data-chart="${name}"]`).evaluate((figure) => {
        const svg = figure.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        // Vega draws each mark as a group of class mark-<type> role-mark; the dashed zero is a rule too, across.
        const rules = [...figure.querySelectorAll('svg .mark-rule.role-mark line')].map((line) => {
          const rule = line.getBoundingClientRect();
          return { across: rule.width > rule.height, heightPx: rule.height };
        });
        const points = [...figure.querySelectorAll('svg .mark-symbol.role-mark path')].map((point) =>
          Number(/sysbench threads: (\d+)/.exec(point.getAttribute('aria-label') ?? '')?.[1]),
        );
        return {
          empty: figure.hasAttribute('data-empty'),
          widthPx: box?.width ?? 0,
          heightPx: box?.height ?? 0,
          intervals: rules.filter((r) => !r.across).map((r) => r.heightPx),
          zeroLines: rules.filter((r) => r.across).length,
          lines: figure.querySelectorAll('svg .mark-line.role-mark path').length,
          points,
          legend: [...figure.querySelectorAll('svg .role-legend-label text')]
            .map((t) => t.textContent)
            .sort(),
        };
      });
      expect(chart.empty, `${name} has a chart`).toBe(false);
      expect(chart.widthPx, `${name} is drawn at a readable width`).toBeGreaterThan(400);
      expect(chart.heightPx, `${name} is drawn at a readable height`).toBeGreaterThan(150);
      // Three closed-loop points on one line, and the open-loop point as a series of its own.
      expect(chart.intervals, `${name} draws one interval per point`).toHaveLength(4);
      for (const heightPx of chart.intervals)
        expect(heightPx, `${name}'s intervals are visible`).toBeGreaterThanOrEqual(2);
      expect(chart.zeroLines).toBe(1);
      expect(chart.lines).toBe(2);
      expect(chart.points.sort((a, b) => a - b)).toEqual([1, 4, 16, 16]);
      expect(chart.legend, `${name}'s legend names each series whole`).toEqual([
        'server_audit (open loop, pinned cores)',
        'server_audit (pinned cores)',
      ]);
    }
    const sweep = page.locator('section', { has: page.locator('h2', { hasText: 'Overhead by threads' }) });
    const points = await sweep
      .locator('table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
    expect(points.map((row) => row[0])).toEqual(['1', '4', '16', '16, open loop 413/s']);
    expect(points.map((row) => row.at(-1))).toEqual([
      'server_audit@t1-pinned',
      'server_audit',
      'server_audit@t16-pinned',
      'server_audit@t16-pinned-open',
    ]);
    const latency = page.locator('section', { has: page.locator('h2', { hasText: 'Tail latency' }) });
    const table = await latency
      .locator('table:has(caption:text-is("p95 and p99 with the plugin off and on"))')
      .evaluate((t) => ({
        rows: [...t.querySelectorAll('tbody tr')].map((row) => row.querySelector('th')?.textContent),
        right: t.getBoundingClientRect().right,
        viewport: t.ownerDocument.documentElement.clientWidth,
      }));
    expect(table.rows).toEqual([
      'server_audit@t1-pinned',
      'server_audit',
      'server_audit@t16-pinned',
      'server_audit@t16-pinned-open',
    ]);
    expect(table.right, 'the tail-latency table fits the window').toBeLessThanOrEqual(table.viewport);
  });
}, 60_000);

test('the counted section in Chromium: where the added instructions go drawn as bars, and the per-transaction table fits', async (context) => {
  const missing = noChromium();
  if (missing) context.skip(missing);
  await reportInChromium(countedReportInput(), { width: 800, height: 900 }, async (page, problems) => {
    expect(problems).toEqual([]);
    const section = page.locator('section', {
      has: page.locator('h2', { hasText: 'Counted cost per transaction' }),
    });
    const chart = section.locator('figure[data-chart="counted-functions"]');
    expect(await chart.locator('svg .mark-rect path').count()).toBe(10);
    const labels = await chart.locator('.role-axis-label text').allTextContents();
    expect(labels).toContain('my_vsnprintf_ex');
    const table = await section
      .locator('table')
      .first()
      .evaluate((t) => ({
        rows: [...t.querySelectorAll('tbody tr')].map((r) => r.querySelector('th, td')?.textContent),
        right: t.getBoundingClientRect().right,
        viewport: t.ownerDocument.documentElement.clientWidth,
      }));
    expect(table.rows).toEqual([
      'instructions',
      'write syscalls',
      'bytes written',
      'audit log bytes',
      'audit events',
    ]);
    expect(table.right).toBeLessThanOrEqual(table.viewport);
    expect(await section.textContent()).toContain('counted work predicts 13.9% at this machine');
  });
}, 60_000);
