import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { type PluginResult, resultsFileSchema } from '../../src/results/schema.ts';
import { overviewRows, overviewSpec } from './overview-spec.ts';
import { renderSvg } from './render-chart.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);
const [measured] = recorded.results;
if (!measured) throw new Error('the fixture holds a result');

// Test doubles around the recorded result: a costlier run with a tighter limit, one without an interval, one unmeasured.
const costly: PluginResult = {
  ...measured,
  title: 'Costly',
  overheadPct: 30,
  overheadCi95: [25, 35],
  limitPct: 20,
  verdict: 'fail',
};
const pointOnly: PluginResult = { ...measured, title: 'Point', overheadPct: 2, overheadCi95: null };
const unmeasured: PluginResult = { ...measured, title: 'None', overheadPct: null, overheadCi95: null };

test('ranks runs by their estimate, highest first, each with its own limit; unmeasured runs are left out', () => {
  const rows = overviewRows([measured, pointOnly, costly, unmeasured]);
  expect(rows.map((r) => [r.run, r.limitPct, r.verdict])).toEqual([
    ['Costly', 20, 'fail'],
    ['MariaDB server_audit', 50, 'pass'],
    ['Point', 50, 'pass'],
  ]);
  expect(rows[2]).toMatchObject({ estimate: 2, lower: 2, upper: 2 });
});

test('rows name the server and workload when runs differ in them; equal labels stay two rows', () => {
  const standard = { ...measured, workload: 'standard' };
  expect(overviewRows([measured, standard, standard]).map((r) => r.run)).toEqual([
    'MariaDB server_audit · mariadb 10.11.19 (local) · smoke',
    'MariaDB server_audit · mariadb 10.11.19 (local) · standard',
    'MariaDB server_audit · mariadb 10.11.19 (local) · standard #2',
  ]);
});

test('the axis spans 0, every interval and every limit; no chart when nothing was measured', () => {
  const spec = overviewSpec([measured, costly]);
  const text = JSON.stringify(spec);
  // From the recorded lower bound −24.7 to the 50% limit, 5% padding each side.
  expect(text).toContain(
    `"domain":[${-24.69604873370632 - 74.69604873370632 * 0.05},${50 + 74.69604873370632 * 0.05}]`,
  );
  expect(text).toContain('"sort":["Costly');
  expect(overviewSpec([unmeasured])).toBeNull();
});

test('renders to SVG with the intervals, the estimates and the limit ticks', async () => {
  const spec = overviewSpec([measured, costly, pointOnly]);
  if (!spec) throw new Error('expected a spec');
  const svg = await renderSvg(spec);
  expect(svg).toMatch(/class="mark-rule[\s\S]*class="mark-symbol[\s\S]*class="mark-rect/);
  expect(svg).toContain('Costly');
});
