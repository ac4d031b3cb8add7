import { expect, test } from 'vitest';
import { sampleCounted, sampleEntry } from '../../test/support/sample-entry.ts';
import { runTrends } from './trend.ts';

const counted = sampleCounted;

test('each run keeps its last entries, oldest first, and the entry whose counts rose is marked on any machine', () => {
  const history = [
    sampleEntry({
      invocationId: 'a',
      runId: 'events',
      recordedAt: '2026-12-01T00:00:00Z',
      counted: counted(5),
    }),
    sampleEntry({ invocationId: 'x', runId: 'ops', recordedAt: '2026-12-01T01:00:00Z' }),
    sampleEntry({
      invocationId: 'b',
      runId: 'events',
      recordedAt: '2026-12-02T00:00:00Z',
      fingerprint: 'another runner',
      counted: counted(9),
    }),
  ];
  const trends = runTrends(history, { maxRegressionPp: 5, maxCountedRisePp: 1 }, { last: 10 });
  expect(
    trends.map((t) => [t.run, t.rows.map((r) => [r.entry.invocationId, r.wallClockFailed, r.countedFailed])]),
  ).toEqual([
    [
      'events',
      [
        ['a', false, false],
        ['b', false, true],
      ],
    ],
    ['ops', [['x', false, false]]],
  ]);
  expect(
    runTrends(history, { maxRegressionPp: null, maxCountedRisePp: 1 }, { last: 1, runs: ['events'] }),
  ).toEqual([{ run: 'events', rows: [{ entry: history[2], wallClockFailed: false, countedFailed: false }] }]);
});
