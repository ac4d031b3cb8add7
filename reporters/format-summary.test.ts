import { expect, test } from 'vitest';
import type { PluginResult } from '../src/results/schema.ts';
import { formatSummary } from './format-summary.ts';

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

test('the summary shows the seed-style facts for each plugin', () => {
  const text = formatSummary([result]);
  for (const cell of [
    'MariaDB server_audit',
    '2210.4',
    '1980.1',
    '10.4%',
    '[8.1, 12.7]',
    '±2.3',
    '3346',
    'failed: uninstall',
  ]) {
    expect(text).toContain(cell);
  }
  const row = text.split('\n').find((line) => line.includes('server_audit')) ?? '';
  expect(row.match(/\byes\b/g)).toHaveLength(2);
  expect(row).toMatch(/\bno\b/);
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

test('every column has its header', () => {
  const lines = formatSummary([result]).split('\n');
  const cells = (needle: string) => (lines.find((l) => l.includes(needle)) ?? '').split('│').length;
  expect(cells('server_audit')).toBe(cells('plugin'));
  expect(lines.find((l) => l.includes('plugin'))).toContain('A/A noise');
});
