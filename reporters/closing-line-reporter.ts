import type { Reporter, TestModule } from 'vitest/node';
import { formatUnmeasured, outlineTests, unmeasuredItems } from './format/format-unmeasured.ts';
import { reportsSettled } from './run-end.ts';
import { countTests, formatCounts } from './test-counts.ts';

/** Ends the run with one plain 'N passed, N failed, N skipped' line that CI systems and scripts can read. */
export default class ClosingLineReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    // A beforeAll that failed leaves its tests un-run, and Vitest fails the run: they count as failed here too.
    const counts = countTests(testModules);
    // The report writers print as they finish; this line must come after them to be the closing line.
    await reportsSettled(testModules);
    // What was asked for and not measured (issue 16), so that a green count cannot hide a missing server.
    process.stdout.write(`\n${formatUnmeasured(unmeasuredItems(outlineTests(testModules)))}`);
    process.stdout.write(`\n${formatCounts(counts)}\n`);
  }
}
