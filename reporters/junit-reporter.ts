import type { TestModule } from 'vitest/node';
import { JUnitReporter } from 'vitest/node';
import { trackReport } from './run-end.ts';

/** Vitest's own JUnit reporter, tracked so that its 'JUNIT report written' line comes before the closing line. */
export default class TrackedJUnitReporter extends JUnitReporter {
  override onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    return trackReport(testModules, super.onTestRunEnd(testModules));
  }
}
