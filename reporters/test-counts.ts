/** The parts of Vitest's TestModule/TestSuite the counts read, so plain objects can stand in for them in tests. */
export interface CountableTest {
  result(): { state: string };
}
export interface CountableScope {
  state(): string;
  errors(): ReadonlyArray<unknown>;
  children: { allTests(): Iterable<CountableTest>; allSuites(): Iterable<CountableScope> };
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Tests that never ran because a hook (beforeAll) or the file itself failed; counted in failed. */
  notRun: number;
}

/**
 * Counts as Vitest judges the run: a test that did not run because its suite's beforeAll (or the file) failed is a
 * failure, not a skip, and a file that failed with no test collected counts as one failure.
 */
export function countTests(modules: Iterable<CountableScope>): TestCounts {
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, notRun: 0 };
  for (const module of modules) {
    const broken = [module, ...module.children.allSuites()].filter((scope) => scope.errors().length > 0);
    const notRunHere = new Set<CountableTest>();
    for (const scope of broken) {
      for (const test of scope.children.allTests())
        if (test.result().state !== 'passed') notRunHere.add(test);
    }
    let tests = 0;
    for (const test of module.children.allTests()) {
      tests++;
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else if (notRunHere.has(test)) {
        counts.failed++;
        counts.notRun++;
      } else counts.skipped++;
    }
    if (tests === 0 && (broken.length > 0 || module.state() === 'failed')) {
      counts.failed++;
      counts.notRun++;
    }
  }
  return counts;
}

export function formatCounts(c: TestCounts): string {
  const why = c.notRun > 0 ? ` (${c.notRun} of them did not run: a beforeAll hook or the file failed)` : '';
  return `tests: ${c.passed} passed, ${c.failed} failed${why}, ${c.skipped} skipped`;
}
