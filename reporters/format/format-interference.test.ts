import { describe, expect, test } from 'vitest';
import { judgeInterference, summariseBlock } from '../../src/machine/block-interference.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { interferenceLines, interferenceMark } from './format-interference.ts';
import { formatSummary } from './format-summary.ts';

const block = (otherPct: number, selfPct: number) =>
  summariseBlock([
    {
      seconds: 48,
      cpuPct: { measured: 190, self: selfPct, kernel: 1, other: otherPct },
      stealPct: 0,
      load1: 2 + otherPct / 100,
      otherTicksByComm: new Map([['node', otherPct * 48]]),
    },
  ]);

const recorded = recordedReportInput().file.results[0] as PluginResult;
const withInterference = (otherPct: number, selfPct = 0.6): PluginResult => {
  if (!recorded.measurement) throw new Error('the recorded result has no measurement');
  return {
    ...recorded,
    measurement: {
      ...recorded.measurement,
      interference: judgeInterference([block(otherPct, selfPct)], 'warn'),
    },
  };
};

describe('interference in the summaries', () => {
  test('a result without sampled figures (recorded before the sampler) gets no mark and no line', () => {
    expect(interferenceMark(recorded)).toBe('');
    expect(interferenceLines([recorded])).toEqual([]);
  });

  test('a quiet result gets no mark; the lines say so and give auditbench its own CPU', () => {
    const quiet = withInterference(3);
    expect(interferenceMark(quiet)).toBe('');
    expect(interferenceLines([quiet])).toEqual([
      'no result was measured under interference',
      "auditbench's own CPU while measuring: at most 0.6% of a core",
    ]);
  });

  test('a loaded result is marked and its line names the figures', () => {
    const loaded = withInterference(95, 1.4);
    expect(interferenceMark(loaded)).toBe(' (busy)');
    const lines = interferenceLines([withInterference(2), loaded]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^MariaDB server_audit · mariadb .* · smoke: measured under interference: other processes used 95% of a core on average \(worst block 95%: node 95%\)/,
    );
    expect(lines[1]).toBe("auditbench's own CPU while measuring: at most 1.4% of a core");
  });
});

test('the terminal summary marks the loaded run and not the quiet one', () => {
  const quiet = formatSummary([withInterference(3)]);
  const loaded = formatSummary([withInterference(95)]);
  expect(quiet).not.toMatch(/\(busy\)|: measured under interference/);
  expect(loaded).toMatch(/pass \(busy\)/);
  expect(loaded.replace(/\s+/g, ' ')).toContain(
    'measured under interference: other processes used 95% of a core',
  );
});
