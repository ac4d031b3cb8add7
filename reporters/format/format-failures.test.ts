import { expect, test } from 'vitest';
import { formatFailures } from './format-failures.ts';

test('nothing failed: no lines at all', () => {
  expect(formatFailures([])).toBe('');
});

test('each failure is named by file and test, with the first non-empty line of its error', () => {
  const text = formatFailures([
    {
      file: 'suites/pack-install.suite.ts',
      name: 'list shows both runs',
      kind: 'test',
      message: "\nexpected 'x' to contain 'connect-only'\n\n- Expected\n+ Received",
    },
    {
      file: 'suites/runs.suite.ts',
      name: '7 run(s) on one server',
      kind: 'hook',
      message: 'server did not start',
    },
    { file: 'suites/broken.suite.ts', name: null, kind: 'hook', message: 'Cannot find module x' },
  ]);
  expect(text).toBe(
    [
      'failed (3):',
      "- suites/pack-install.suite.ts > list shows both runs: expected 'x' to contain 'connect-only'",
      '- suites/runs.suite.ts > 7 run(s) on one server: a hook or the file failed: server did not start',
      '- suites/broken.suite.ts: a hook or the file failed: Cannot find module x',
      '',
    ].join('\n'),
  );
});

test('a long error line is cut, so one failure stays one line', () => {
  const text = formatFailures([{ file: 'f', name: 'n', kind: 'test', message: 'x'.repeat(1000) }]);
  expect(text.split('\n')[1]?.length).toBeLessThan(260);
  expect(text).toContain('…');
});
