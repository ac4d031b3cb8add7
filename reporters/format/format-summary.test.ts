import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { type PluginResult, resultsFileSchema } from '../../src/results/schema.ts';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
import { formatSummary, wrapText } from './format-summary.ts';
import { lifecycleCell, runLabel } from './opening-table.ts';

const result: PluginResult = {
  plugin: 'SERVER_AUDIT',
  title: 'MariaDB server_audit',
  server: { flavor: 'mariadb', version: '10.11.19-MariaDB', target: 'local' },
  workload: 'smoke',
  baselineTps: 2210.44,
  pluginTps: 1980.1,
  overheadPct: 10.42,
  limitPct: 50,
  verdict: 'pass',
  overheadCi95: [8.1, 12.7],
  pairs: 6,
  noiseFloorPct: 2.3,
  minDetectablePct: 3.9,
  logBytesPerTxn: 3346.2,
  lifecycle: [
    { check: 'rotation', expected: {}, observed: { rotatedFiles: [1, 2, 3] }, ok: true },
    { check: 'failed-queries', expected: [1064, 1146], observed: [1064, 1146], ok: true },
    { check: 'uninstall', expected: {}, observed: { needsRestart: false }, ok: false },
  ],
  measurement: null,
  calibration: null,
};

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);

test('the summary shows the verdict facts for each plugin', () => {
  const text = formatSummary([result]);
  for (const cell of ['2210.4', '1980.1', '10.4%', '[8.1, 12.7]', 'A/A ±2.3', '3346 B/txn', 'uninstall']) {
    expect(text).toContain(cell);
  }
});

test.for([
  ['the recorded results', recorded.results],
  [
    'long titles, run ids, reasons and failed checks',
    recorded.results.map((r) => ({
      ...r,
      title: `${r.title} with a configuration run title far longer than any column`,
      runId: 'server-audit-everything-logged-prepared-statements-off',
      lifecycle: r.lifecycle.map((c) => ({ ...c, ok: false })),
      measurement: r.measurement && { ...r.measurement, reason: `${r.measurement.reason} `.repeat(4) },
    })),
  ],
] as const)('every line of the terminal summary fits 120 columns: %s', ([, results]) => {
  const text = formatSummary([...results]);
  for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);
  expect(text).toContain('is within the 50% limit');
});

test('a run id the title does not show is added to it', () => {
  expect(runLabel({ ...result, runId: 'ps-off' } as PluginResult)).toBe('MariaDB server_audit (ps-off)');
  expect(runLabel(result)).toBe('MariaDB server_audit');
});

test('wrapText breaks at words, indents continuation lines and cuts a word longer than a line', () => {
  expect(wrapText('aaa bbb ccc', 7, '  ')).toBe('aaa bbb\n  ccc');
  expect(wrapText('abcdefghij', 4, ' ')).toBe('abcd\n efg\n hij');
});

test('a crash the profile expects still shows in the lifecycle cell', () => {
  const crashed = {
    ...result,
    lifecycle: [{ check: 'uninstall', expected: {}, observed: {}, ok: true, details: { crash: 'died' } }],
  };
  expect(lifecycleCell(crashed)).toBe('1 ok; uninstall crashed');
});

test('a result without a measurement shows dashes, not zeros', () => {
  const text = formatSummary([
    {
      ...result,
      baselineTps: null,
      pluginTps: null,
      overheadPct: null,
      overheadCi95: null,
      verdict: 'error',
    },
  ]);
  expect(text).toContain('error');
  expect(text).not.toContain('NaN');
});

test('a sweep: ids in the table, each title once under it, and what each configuration logged', () => {
  const results = sweepReportInput().file.results;
  const text = formatSummary(results);
  const rows = text.split('\n').filter((line) => line.startsWith('│ '));
  expect(rows.some((line) => line.startsWith('│ incl-users-app '))).toBe(true);
  expect(text).not.toContain('│ MariaDB');
  expect(text).toContain(
    'runs:\n- server_audit: MariaDB server_audit\n- incl-users-app: MariaDB server_audit',
  );
  expect(text).toContain(
    '- dml-no-select on mariadb 10.11.19 (local): logged 4.0 audit events per transaction',
  );
  expect(text).toContain('│ 0.0 IDLE   │');
  expect(text).toContain('\n4 runs: 2 pass, 2 fail (incl-users-app: 4 lifecycle checks failed');
  for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);
});

test('under a failing run, the summary names docs/when-it-fails.md and the kinds that failed it; a pass names none', () => {
  const text = formatSummary([result]);
  expect(text).toContain("what it means and what to do: auditbench's docs/when-it-fails.md (#lifecycle)");
  const [passing] = recorded.results;
  if (!passing) throw new Error('the recorded results hold no result');
  expect(formatSummary([passing])).not.toContain('when-it-fails');
});
