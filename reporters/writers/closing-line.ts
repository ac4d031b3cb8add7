import type { TestModule } from 'vitest/node';
import { formatUnmeasured, outlineTests, unmeasuredItems } from '../format/format-unmeasured.ts';
import { countTests, formatCounts } from '../test-counts.ts';

/**
 * The run's last lines: what was asked for and not measured (issue 16), so that a green count cannot hide a missing
 * server, then one plain 'N passed, N failed, N skipped' line that CI systems and scripts can read.
 */
export function closingLines(testModules: ReadonlyArray<TestModule>): string {
  // A beforeAll that failed leaves its tests un-run, and Vitest fails the run: they count as failed here too.
  const counts = countTests(testModules);
  return `\n${formatUnmeasured(unmeasuredItems(outlineTests(testModules)))}\n${formatCounts(counts)}\n`;
}
