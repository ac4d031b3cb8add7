import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseSysbenchOutput } from './sysbench-output.ts';

function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/sysbench/${name}`, import.meta.url), 'utf8');
}

const normalRun = fixture('run-oltp-read-write.txt');

describe('parseSysbenchOutput on an open-loop run', () => {
  test("--rate's queue lines join the second they report on", () => {
    const result = parseSysbenchOutput(fixture('run-open-loop-rate.txt'));
    expect(result.transactions).toBe(573);
    expect(result.intervals.map((i) => [i.atS, i.tps, i.queueLength, i.concurrency])).toEqual([
      [1, 195.85, 0, 1],
      [2, 169.05, 0, 0],
      [3, 207.97, 0, 0],
    ]);
    expect(parseSysbenchOutput(normalRun).intervals[0]).not.toHaveProperty('queueLength');
  });
});

describe('parseSysbenchOutput on complete reports', () => {
  test.for([
    {
      file: 'run-oltp-read-write.txt',
      expected: {
        transactions: 6550,
        tps: 817.69,
        queries: 131_000,
        qps: 16_353.85,
        reads: 91_700,
        writes: 26_200,
        other: 13_100,
        latencyAvgMs: 4.89,
        latencyP95Ms: 9.73,
        latencyMaxMs: 29.53,
        errors: 0,
        reconnects: 0,
        durationS: 8.0095,
      },
      intervalCount: 8,
    },
    {
      file: 'run-ignored-errors-deadlocks.txt',
      expected: { transactions: 3536, queries: 95_544, errors: 1533, reconnects: 0, durationS: 5.0321 },
      intervalCount: 5,
    },
    {
      file: 'run-ignored-errors-dropped-table.txt',
      expected: { transactions: 1691, tps: 332.62, errors: 2968, latencyP95Ms: 41.1, durationS: 5.083 },
      intervalCount: 5,
    },
  ])('$file', ({ file, expected, intervalCount }) => {
    const result = parseSysbenchOutput(fixture(file));
    expect(result).toMatchObject(expected);
    expect(result.intervals).toHaveLength(intervalCount);
    expect(result.intervals.map((i) => i.atS)).toEqual(
      Array.from({ length: intervalCount }, (_, i) => i + 1),
    );
  });

  test('derives per-second statement rates from the counts and total time', () => {
    const result = parseSysbenchOutput(normalRun);
    expect(result.readsPerS).toBeCloseTo(91_700 / 8.0095, 6);
    expect(result.writesPerS).toBeCloseTo(26_200 / 8.0095, 6);
    expect(result.otherPerS).toBeCloseTo(13_100 / 8.0095, 6);
  });

  test('reads every field of a per-second line', () => {
    expect(parseSysbenchOutput(normalRun).intervals[0]).toEqual({
      atS: 1,
      threads: 4,
      tps: 581.17,
      qps: 11_683.24,
      latencyP95Ms: 13.46,
      errorsPerS: 0,
      reconnectsPerS: 0,
    });
  });

  test('reads error rates of per-second lines', () => {
    const intervals = parseSysbenchOutput(fixture('run-ignored-errors-dropped-table.txt')).intervals;
    expect(intervals.map((i) => i.errorsPerS)).toEqual([0, 0, 585.18, 1143.23, 1167.98]);
  });

  test('reads reconnects (hand-edited copy of the normal run: sysbench 1.0.20 crashes when it reconnects here)', () => {
    const edited = normalRun
      .replace('reconnects:                          0      (0.00 per sec.)', 'reconnects: 3 (0.37 per sec.)')
      .replace('err/s: 0.00 reconn/s: 0.00\n[ 5s ]', 'err/s: 0.00 reconn/s: 3.00\n[ 5s ]');
    const result = parseSysbenchOutput(edited);
    expect(result.reconnects).toBe(3);
    expect(result.intervals[3]?.reconnectsPerS).toBe(3);
  });
});

describe('parseSysbenchOutput on incomplete reports', () => {
  test.for([
    {
      name: 'crashed run (recorded SIGSEGV)',
      text: fixture('run-truncated-segfault.txt'),
      error:
        "no 'SQL statistics:' block, so the run did not finish (crashed, killed or truncated); the last per-second line was at 3s",
    },
    {
      name: 'fatal error run (recorded lost connection)',
      text: fixture('run-fatal-lost-connection.txt'),
      error: "no 'SQL statistics:' block",
    },
    {
      name: 'cut inside the SQL statistics block',
      text: normalRun.slice(0, normalRun.indexOf('    ignored errors:')),
      error: "no 'General statistics:' block",
    },
    {
      name: 'cut inside the Latency block',
      text: normalRun.slice(0, normalRun.indexOf('         95th percentile:')),
      error: "sysbench output is incomplete: no '95th percentile' in the Latency (ms) block",
    },
    {
      name: 'cut in the middle of a per-second line',
      text: normalRun.slice(0, normalRun.indexOf('qps: 17704.11')),
      error: 'the last per-second line was at 8s',
    },
    {
      name: 'prepare output',
      text: fixture('prepare-oltp-read-write.txt'),
      error: 'there are no per-second lines either (was --report-interval=1 passed?)',
    },
    { name: 'empty text', text: '', error: "no 'SQL statistics:' block" },
  ])('$name throws naming what is missing', ({ text, error }) => {
    expect(() => parseSysbenchOutput(text)).toThrow(error);
  });

  test('rejects a per-second line that is not in the oltp_* format', () => {
    const garbled = normalRun.replace('[ 2s ] thds: 4 tps: 534.29', '[ 2s ] thds: 4 tps: nan');
    expect(() => parseSysbenchOutput(garbled)).toThrow('per-second line is not in the oltp_* format');
  });

  test('rejects a report measured at another percentile', () => {
    const other = normalRun.replaceAll('lat (ms,95%)', 'lat (ms,99%)');
    expect(() => parseSysbenchOutput(other)).toThrow('run it with --percentile=95');
  });
});
