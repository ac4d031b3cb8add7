import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { perEventFixture } from '../../test/support/per-event-fixture.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { formatPerEventMarkdown, formatPerEventText, perEventSection } from './format-per-event.ts';

const [recorded] = recordedReportInput().file.results;
if (!recorded) throw new Error('the recorded results hold no result');
const bounded: PluginResult = {
  ...recorded,
  perEvent: { ...perEventFixture({ sizeBytes: 1e9, rotations: 4 }), crossCheck: undefined },
};
const unbounded: PluginResult = { ...recorded, title: 'General query log', perEvent: perEventFixture(null) };

test('the terminal section has a row per operation with its interval, then the projection', () => {
  const text = formatPerEventText([bounded, recorded]);
  for (const part of [
    'SELECT by primary key',
    '+6.0 [4.8, 7.2]',
    '+3.0 [2.4, 3.6]',
    '120',
    'at most 5.0 GB',
  ]) {
    expect(text).toContain(part);
  }
  expect(text).toContain('cross-check: no sysbench measurement of this plugin in this run');
  expect(formatPerEventText([recorded])).toBe('');
  const faster = perEventFixture(null);
  const [first, ...rest] = faster.operations;
  if (!first) throw new Error('fixture has no operations');
  const noisy: PluginResult = {
    ...recorded,
    perEvent: { ...faster, operations: [{ ...first, addedUs: -2.5 }, ...rest] },
  };
  expect(formatPerEventText([noisy])).toContain(' -2.5 [');
});

test('the HTML section: a table per plugin; an unrotated log says unbounded and when the free space is full', () => {
  const section = perEventSection([recorded, unbounded], '<svg></svg>');
  expect(section?.tables?.length).toBe(1);
  expect(section?.tables?.[0]?.rows.length).toBe(5);
  expect(section?.figures[0]).toMatchObject({ name: 'disk-use', svg: '<svg></svg>' });
  const [line] = section?.tables?.[0]?.notes ?? [];
  expect(perEventSection([recorded], null)).toBeNull();
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
  const md = formatPerEventMarkdown([withCheck]).join('\n');
  expect(md).toContain('### Cost per audited event');
  expect(md).toContain('| MariaDB server_audit | SELECT by primary key | 80 |');
  expect(md).toContain(
    'predict 7.3% [5.9, 8.7] throughput loss, sysbench measured 10.4% [8.1, 12.7]; ratio 0.70',
  );
  expect(formatPerEventMarkdown([recorded])).toEqual([]);
});
