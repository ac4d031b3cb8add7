import { expect, test } from 'vitest';
import type { Comparison } from '../../src/history/compare.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { formatMarkdownSummary } from './format-markdown.ts';
import { formatSummary } from './format-summary.ts';
import { buildHtmlReport } from './html-report.ts';
import { OPENING_COLUMNS, openingColumns, plainCell } from './opening-table.ts';

const input = recordedReportInput();
const [measured, unmeasured] = input.file.results;
if (!measured || !unmeasured)
  throw new Error('the recorded report input holds a measured and an unmeasured result');

test('every column stands in a report, and the terminal’s widths fill its 120 columns with 9 borders', () => {
  expect(OPENING_COLUMNS.filter((c) => Object.keys(c.in).length === 0)).toEqual([]);
  const terminal = openingColumns('terminal');
  expect(terminal.reduce((sum, c) => sum + (c.in.terminal ?? 0), 0) + terminal.length + 1).toBe(120);
  expect(openingColumns('html').map((c) => c.head)).toEqual(['run', 'status', 'plugin and settings']);
});

test('the three reports print the declared headings, in the declared order', async () => {
  const terminal = formatSummary(input.file.results).split('\n').slice(0, 4).join('\n');
  for (const c of openingColumns('terminal'))
    for (const line of c.head.split('\n')) expect(terminal).toContain(line);
  const markdown = formatMarkdownSummary({
    results: input.file.results,
    comparisons: input.comparisons,
    revision: input.revision,
    baseBranch: 'main',
    generatedAt: input.file.generatedAt,
    fingerprint: 'fp',
    maxRegressionPp: null,
    gateLine: 'gate',
  });
  const heads = openingColumns('markdown').map((c) => c.head.replace('BASE', 'main'));
  expect(markdown).toContain(`| ${heads.join(' | ')} |`);
  const html = await buildHtmlReport(input);
  expect(html).toMatch(/<th[^>]*>run<\/th>\s*<th[^>]*>status<\/th>\s*<th[^>]*>plugin and settings<\/th>/);
});

test('a run no test measured says "not measured" in the terminal and in summary.md alike', () => {
  const verdict = OPENING_COLUMNS.find((c) => c.head === 'verdict');
  expect(verdict?.in).toEqual({ terminal: 14, markdown: true });
  expect(plainCell(verdict?.cell({ result: unmeasured }) ?? '')).toBe('not measured');
  const row = formatMarkdownSummary({
    results: [unmeasured],
    comparisons: [],
    revision: input.revision,
    baseBranch: 'main',
    generatedAt: input.file.generatedAt,
    fingerprint: 'fp',
    maxRegressionPp: null,
    gateLine: 'gate',
  })
    .split('\n')
    .find((l) => l.startsWith('| Unmeasured'));
  expect(row).toContain('| **not measured** |');
});

test('summary.md puts a regression in bold and writes its figures as they are', () => {
  const change = OPENING_COLUMNS.find((c) => c.head === 'vs BASE (pp)');
  const regressed = { kind: 'compared', changePp: 3.2, changeCi95: [1.5, 4.9], verdict: 'regressed' };
  const cell = change?.cell({ result: measured, comparison: regressed as Comparison });
  expect(cell).toEqual([{ text: '+3.2 [1.5, 4.9] ' }, { text: 'regressed', strong: true }]);
  expect(change?.figures).toBe(true);
});
