import { expect, test } from 'vitest';
import { type CountableScope, type CountableTest, countTests, formatCounts } from './test-counts.ts';

const t = (state: string): CountableTest => ({ result: () => ({ state }) });
function scope(
  tests: CountableTest[],
  errors: unknown[] = [],
  suites: CountableScope[] = [],
  state = 'passed',
) {
  const all = [...tests, ...suites.flatMap((s) => [...s.children.allTests()])];
  return {
    state: () => state,
    errors: () => errors,
    children: { allTests: () => all, allSuites: () => suites },
  } satisfies CountableScope;
}

test('plain passes, failures and skips', () => {
  const counts = countTests([scope([t('passed'), t('failed'), t('skipped')])]);
  expect(formatCounts(counts)).toBe('tests: 1 passed, 1 failed, 1 skipped');
});

test('tests of a suite whose beforeAll failed count as failed, as Vitest judges the run', () => {
  const broken = scope([t('skipped'), t('skipped')], [new Error('beforeAll: server did not start')]);
  const counts = countTests([scope([t('passed')], [], [broken], 'failed')]);
  expect(counts).toEqual({ passed: 1, failed: 2, skipped: 0, notRun: 2 });
  expect(formatCounts(counts)).toBe(
    'tests: 1 passed, 2 failed (2 of them did not run: a beforeAll hook or the file failed), 0 skipped',
  );
});

test('a file that failed before collecting any test is one failure', () => {
  expect(countTests([scope([], [new Error('import failed')], [], 'failed')])).toEqual({
    passed: 0,
    failed: 1,
    skipped: 0,
    notRun: 1,
  });
});

test('a skip outside the broken suite stays a skip', () => {
  const broken = scope([t('skipped')], [new Error('x')]);
  expect(countTests([scope([t('skipped')], [], [broken], 'failed')])).toMatchObject({
    failed: 1,
    skipped: 1,
  });
});
