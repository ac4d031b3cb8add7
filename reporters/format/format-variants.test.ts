import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { sectionText } from './format-terminal.ts';
import { variantGroups, variantsContent } from './format-variants.ts';

const result = (runId: string, overheadPct: number | null, logBytesPerTxn: number | null): PluginResult => ({
  runId,
  plugin: 'SERVER_AUDIT',
  title: `server_audit ${runId}`,
  server: { flavor: 'mariadb', version: '10.11.19-MariaDB-0+deb12u1', target: 'local' },
  workload: 'smoke',
  baselineTps: 600,
  pluginTps: overheadPct === null ? null : 600 * (1 - overheadPct / 100),
  overheadPct,
  limitPct: 50,
  verdict: overheadPct === null ? 'error' : 'pass',
  overheadCi95: overheadPct === null ? null : [overheadPct - 2, overheadPct + 2],
  pairs: 8,
  noiseFloorPct: null,
  minDetectablePct: null,
  logBytesPerTxn,
  lifecycle: [],
  measurement: null,
  calibration: null,
});

test('configurations of one plugin are ranked cheapest first, with their share of the largest log', () => {
  const results = [
    result('all', 17.9, 3_383),
    result('connect', 0.4, 0),
    result('ddl-dcl', 2.1, 0),
    result('broken', null, null),
    { ...result('other-plugin', 5, 10), plugin: 'general_log' },
  ];
  const [group, ...more] = variantGroups(results);
  expect(more).toEqual([]);
  expect(group?.rows.map((r) => [r.rank, r.runId, r.logSharePct])).toEqual([
    [1, 'connect', 0],
    [2, 'ddl-dcl', 0],
    [3, 'all', 100],
    [4, 'broken', null],
  ]);
  const content = variantsContent(variantGroups(results));
  const text = sectionText(content);
  expect(text).toContain('SERVER_AUDIT on mariadb 10.11.19 (local), smoke');
  expect(text).toMatch(/^ {2}1 {5}connect {2,}0\.4% \[-1\.6, 2\.4\] {2,}pass/m);
  for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  expect(sectionMarkdown('Configurations compared', content)[4]).toBe(
    '| rank | run | overhead [95% CI] | verdict | log B/txn | of most |',
  );
});

test('a plugin measured once, or results without run ids, make no ranking', () => {
  expect(variantGroups([result('all', 10, 1)])).toEqual([]);
  const { runId: _, ...old } = result('x', 1, 1);
  expect(variantGroups([old, { ...old }])).toEqual([]);
});
