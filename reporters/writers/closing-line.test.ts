import { expect, test } from 'vitest';
import { collectFailures, type FailingModule } from './closing-line.ts';

const passed = (fullName: string) => ({ fullName, result: () => ({ state: 'passed' }) });
const failed = (fullName: string, message: string) => ({
  fullName,
  result: () => ({ state: 'failed', errors: [{ message }] }),
});
const module = (
  relativeModuleId: string,
  tests: ReturnType<typeof passed>[],
  suites: { fullName: string; errors: () => { message: string }[] }[] = [],
  errors: { message: string }[] = [],
): FailingModule => ({
  relativeModuleId,
  errors: () => errors,
  children: { allTests: () => tests, allSuites: () => suites },
});

test('names failed tests and broken hooks with their file, and nothing that passed', () => {
  const failures = collectFailures([
    module('suites/a.suite.ts', [passed('fine'), failed('a > breaks', 'expected 1 to be 2')]),
    module(
      'suites/b.suite.ts',
      [],
      [{ fullName: 'one server', errors: () => [{ message: 'did not start' }] }],
    ),
    module('suites/c.suite.ts', [], [], [{ message: 'SyntaxError' }]),
    module('suites/d.suite.ts', [passed('ok')]),
  ]);
  expect(failures).toEqual([
    { file: 'suites/a.suite.ts', name: 'a > breaks', kind: 'test', message: 'expected 1 to be 2' },
    { file: 'suites/b.suite.ts', name: 'one server', kind: 'hook', message: 'did not start' },
    { file: 'suites/c.suite.ts', name: null, kind: 'hook', message: 'SyntaxError' },
  ]);
});
