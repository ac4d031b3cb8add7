import { describe, expect, test } from 'vitest';
import {
  armOrder,
  bendOf,
  describeBend,
  formatSlowFsTable,
  pluginCostPct,
  roundOrder,
  type SlowFsRow,
  slowFsSettings,
} from './slow-fs-study.ts';

describe('slowFsSettings', () => {
  test('defaults: 0, 1, 5 and 20 ms, 20 s an arm, two rounds', () => {
    expect(slowFsSettings({ AUDITBENCH_STUDY: '' })).toEqual({
      delaysMs: [0, 1, 5, 20],
      seconds: 20,
      rounds: 2,
    });
  });

  test('delays to the microsecond', () => {
    expect(slowFsSettings({ AUDITBENCH_STUDY: 'delays=0.25,0.1,1' }).delaysMs).toEqual([0.1, 0.25, 1]);
    expect(() => slowFsSettings({ AUDITBENCH_STUDY: 'delays=0.0001' })).toThrow("got '0.0001'");
  });

  test('delays are sorted and kept once', () => {
    expect(slowFsSettings({ AUDITBENCH_STUDY: 'delays=20,0,5,5 seconds=10 rounds=1' })).toEqual({
      delaysMs: [0, 5, 20],
      seconds: 10,
      rounds: 1,
    });
  });

  test.for([
    [
      'delays=1,x',
      "AUDITBENCH_STUDY delays must be a comma-separated list of milliseconds from 0 to 1000, to three decimals (0.25 is 250 µs); got '1,x'",
    ],
    [
      'delays=5000',
      "AUDITBENCH_STUDY delays must be a comma-separated list of milliseconds from 0 to 1000, to three decimals (0.25 is 250 µs); got '5000'",
    ],
    ['seconds=2', "AUDITBENCH_STUDY seconds must be a whole number from 5 to 600; got '2'"],
    [
      'runs=3',
      "AUDITBENCH_STUDY has 'runs=3': give name=value words, the names being delays, seconds, rounds; got 'runs=3'",
    ],
    [
      'delays',
      "AUDITBENCH_STUDY has 'delays': give name=value words, the names being delays, seconds, rounds; got 'delays'",
    ],
  ])('%s is refused in one line naming it', ([study, message]) => {
    expect(() => slowFsSettings({ AUDITBENCH_STUDY: study })).toThrow(message);
  });
});

test('rows and arms alternate direction each round', () => {
  const settings = { delaysMs: [0, 5] };
  expect(roundOrder(settings, 'ext4', 1)).toEqual([
    { kind: 'plain', fsType: 'ext4' },
    { kind: 'fuse', delayMs: 0 },
    { kind: 'fuse', delayMs: 5 },
  ]);
  expect(roundOrder(settings, 'ext4', 2).map((fs) => (fs.kind === 'fuse' ? fs.delayMs : fs.fsType))).toEqual([
    5,
    0,
    'ext4',
  ]);
  expect(armOrder(1)).toEqual(['off', 'on']);
  expect(armOrder(2)).toEqual(['on', 'off']);
});

const row = (delayMs: number | null, offTps: number[], onTps: number[]): SlowFsRow => ({
  fs: delayMs === null ? { kind: 'plain', fsType: 'ext4' } : { kind: 'fuse', delayMs },
  offTps,
  onTps,
});

describe('bendOf', () => {
  test('the first delay more than 10% below the 0 ms throughput bends the curve', () => {
    const rows = [
      row(null, [1000], [900]),
      row(0, [1000], [800]),
      row(1, [1000], [760]),
      row(5, [1000], [300]),
    ];
    const bend = bendOf(rows);
    expect(bend).toEqual({ kind: 'bends', flatThroughMs: 1, bentByMs: 5, retainedPct: 37.5 });
    expect(describeBend(bend)).toBe(
      'the curve bends between 1 and 5 ms a write: with the plugin on, 5 ms keeps 38% of the FUSE 0 ms throughput',
    );
  });

  test('flat through the largest delay', () => {
    expect(bendOf([row(0, [500], [400]), row(20, [500], [380])])).toEqual({
      kind: 'flat',
      throughMs: 20,
      retainedPct: 95,
    });
  });

  test('rows out of order are read by delay', () => {
    expect(bendOf([row(5, [1], [100]), row(0, [1], [400]), row(1, [1], [390])])).toMatchObject({
      flatThroughMs: 1,
      bentByMs: 5,
    });
  });

  test('without a 0 ms row there is no baseline', () => {
    expect(bendOf([row(null, [1], [1]), row(5, [1], [1])])).toEqual({ kind: 'no baseline' });
  });
});

test('the table: mean and each round, the cost against the off arm on the same filesystem, the on arm against FUSE 0 ms', () => {
  const rows = [
    row(null, [1000, 1010], [900, 910]),
    row(0, [1000, 1000], [800, 800]),
    row(5, [990, 1010], [200, 200]),
  ];
  expect(pluginCostPct(rows[0] as SlowFsRow)).toBeCloseTo(9.95, 2);
  expect(formatSlowFsTable(rows)).toEqual([
    '| log filesystem | TPS, plugin off | TPS, plugin on | plugin cost | on, vs FUSE 0 ms |',
    '| --- | --- | --- | --- | --- |',
    '| ext4 (the datadir) | 1005 (1000, 1010) | 905 (900, 910) | 10.0% | — |',
    '| FUSE, 0 ms a write | 1000 (1000, 1000) | 800 (800, 800) | 20.0% | 100% |',
    '| FUSE, 5 ms a write | 1000 (990, 1010) | 200 (200, 200) | 80.0% | 25% |',
  ]);
});
