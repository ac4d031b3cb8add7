import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { perEventFixture } from '../../test/support/per-event-fixture.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { perEventContent, perEventResults } from './format-per-event.ts';
import { sectionText } from './format-terminal.ts';

const text = (results: PluginResult[]) => sectionText(perEventContent(results));

const [recorded] = recordedReportInput().file.results;
if (!recorded) throw new Error('the recorded results hold no result');
const bounded: PluginResult = {
  ...recorded,
  perEvent: { ...perEventFixture({ sizeBytes: 1e9, rotations: 4 }), crossCheck: undefined },
};
const unbounded: PluginResult = { ...recorded, title: 'General query log', perEvent: perEventFixture(null) };

test('the terminal section has a row per operation with its interval, then the projection', () => {
  const shown = text([bounded, recorded]);
  for (const part of [
    'SELECT by primary key',
    '+6.0 [4.8, 7.2]',
    '+3.0 [2.4, 3.6]',
    '120',
    'at most 5.0 GB',
  ]) {
    expect(shown).toContain(part);
  }
  expect(shown).toContain('cross-check: no sysbench measurement of this plugin in this run');
  expect(perEventResults([recorded])).toEqual([]);
  const faster = perEventFixture(null);
  const [first, ...rest] = faster.operations;
  if (!first) throw new Error('fixture has no operations');
  const noisy: PluginResult = {
    ...recorded,
    perEvent: { ...faster, operations: [{ ...first, addedUs: -2.5 }, ...rest] },
  };
  expect(text([noisy])).toContain(' -2.5 [');
});

test('a table per plugin; an unrotated log says unbounded and when the free space is full', () => {
  const content = perEventContent([recorded, unbounded]);
  expect(content.tables?.length).toBe(1);
  expect(content.tables?.[0]?.rows.length).toBe(5);
  expect(content.charts?.[0]?.name).toBe('disk-use');
  expect(content.charts?.[0]?.spec).not.toBeNull();
  const [line] = content.tables?.[0]?.notes ?? [];
  expect(line).toMatch(/disk: unbounded \(no rotation\); 100 GB free fills in \d+\.\d days/);
});

test('summary.md gets a table and the cross-check ratio when sysbench measured the same plugin', () => {
  const withCheck: PluginResult = {
    ...bounded,
    perEvent: {
      ...perEventFixture(null),
      crossCheck: {
        mix: 'oltp',
        statementsPerTxn: { select: 16, write: 4 },
        baselineTps: 600,
        serverCores: 1,
        addedUsPerTxn: 132,
        predictedLossPct: 7.3,
        predictedCi95: [5.9, 8.7],
        measuredLossPct: 10.4,
        measuredCi95: [8.1, 12.7],
        ratio: 0.7,
      },
    },
  };
  const md = sectionMarkdown('Cost per audited event', perEventContent([withCheck])).join('\n');
  expect(md).toContain('### Cost per audited event');
  expect(md).toContain('| SELECT by primary key | 80 |');
  expect(md).toContain(
    'predict 7.3% [5.9, 8.7] throughput loss, sysbench measured 10.4% [8.1, 12.7]; ratio 0.70',
  );
});
