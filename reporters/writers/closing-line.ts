import type { TestModule } from 'vitest/node';
import { type Failure, formatFailures } from '../format/format-failures.ts';
import { formatFileTimes, isBenchmark } from '../format/format-progress.ts';
import { formatUnmeasured, outlineTests, unmeasuredItems } from '../format/format-unmeasured.ts';
import { countTests, formatCounts } from '../test-counts.ts';

/** The parts of Vitest's TestModule the failure list reads, so plain objects can stand in for them in tests. */
interface ErrorLike {
  message?: string;
}
interface FailingTest {
  fullName: string;
  result(): { state: string; errors?: ReadonlyArray<ErrorLike> };
}
interface FailingSuite {
  fullName: string;
  errors(): ReadonlyArray<ErrorLike>;
}
export interface FailingModule {
  relativeModuleId: string;
  errors(): ReadonlyArray<ErrorLike>;
  children: { allTests(): Iterable<FailingTest>; allSuites(): Iterable<FailingSuite> };
}

const messageOf = (errors: ReadonlyArray<ErrorLike> | undefined) =>
  errors?.map((e) => e.message).find((m) => m) ?? '(no message)';

/** Failed tests, and suites or files whose hook or import failed, in the order Vitest ran them. */
export function collectFailures(modules: Iterable<FailingModule>): Failure[] {
  const failures: Failure[] = [];
  for (const module of modules) {
    const file = module.relativeModuleId;
    if (module.errors().length > 0)
      failures.push({ file, name: null, kind: 'hook', message: messageOf(module.errors()) });
    for (const suite of module.children.allSuites()) {
      if (suite.errors().length > 0)
        failures.push({ file, name: suite.fullName, kind: 'hook', message: messageOf(suite.errors()) });
    }
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'failed')
        failures.push({ file, name: test.fullName, kind: 'test', message: messageOf(result.errors) });
    }
  }
  return failures;
}

/** The benchmark files' wall times. */
const fileTimes = (testModules: ReadonlyArray<TestModule>) =>
  testModules
    .filter((m) => isBenchmark(m.project.name))
    .map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration }));

/**
 * The run's last lines: what was asked for and not measured (issue 16), so that a green count cannot hide a missing
 * server; where the minutes went, by file, and what failed, by name, since a CI log may keep only these lines;
 * then one plain 'N passed, N failed, N skipped' line that CI systems and scripts can read.
 */
export function closingLines(testModules: ReadonlyArray<TestModule>): string {
  // A beforeAll that failed leaves its tests un-run, and Vitest fails the run: they count as failed here too.
  const counts = countTests(testModules);
  const failed = formatFailures(collectFailures(testModules));
  const times = formatFileTimes(fileTimes(testModules));
  return `\n${formatUnmeasured(unmeasuredItems(outlineTests(testModules)))}\n${times ? `${times}\n` : ''}${failed ? `${failed}\n` : ''}${formatCounts(counts)}\n`;
}
