import type { Reporter, TestModule } from 'vitest/node';
import { formatUnmeasured, outlineTests, unmeasuredItems } from './format-unmeasured.ts';
import { reportsSettled } from './run-end.ts';

/** Ends the run with one plain 'N passed, N failed, N skipped' line that CI systems and scripts can read. */
export default class ClosingLineReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    // The report writers print as they finish; this line must come after them to be the closing line.
    await reportsSettled(testModules);
    // What was asked for and not measured (issue 16), so that a green count cannot hide a missing server.
    process.stdout.write(`\n${formatUnmeasured(unmeasuredItems(outlineTests(testModules)))}`);
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
