import { expect, test } from 'vitest';
import { formatFileTimes, formatProgress } from './format-progress.ts';

test.for([
  [
    { done: 2, total: 5, file: 'suites/a.suite.ts', fileMs: 190_000, elapsedMs: 380_000 },
    'auditbench: suite 2 of 5 done (suites/a.suite.ts, 3m10s); 6m20s elapsed, about 9m30s left',
  ],
  [
    { done: 5, total: 5, file: 'suites/e.suite.ts', fileMs: 4_400, elapsedMs: 59_600 },
    'auditbench: suite 5 of 5 done (suites/e.suite.ts, 4s); 1m00s elapsed',
  ],
] as const)('%j', ([progress, line]) => {
  expect(formatProgress(progress)).toBe(line);
});

test('time by file: slowest first, short files counted but not named', () => {
  const line = formatFileTimes([
    { file: 'suites/a.suite.ts', ms: 65_000 },
    { file: 'suites/b.suite.ts', ms: 4_000 },
    { file: 'suites/c.suite.ts', ms: 831_000 },
  ]);
  expect(line).toBe(
    'time by file (15m00s in 3 files): suites/c.suite.ts 13m51s, suites/a.suite.ts 1m05s, 1 more under 30s\n',
  );
  expect(formatFileTimes([])).toBe('');
});

test('time by file: a file merged from several shards is one file, its shards summed', () => {
  const line = formatFileTimes([
    { file: 'suites/matrix.suite.ts', ms: 512_000 },
    { file: 'suites/matrix.suite.ts', ms: 446_000 },
  ]);
  expect(line).toBe('time by file (15m58s in 1 files): suites/matrix.suite.ts 15m58s\n');
});
