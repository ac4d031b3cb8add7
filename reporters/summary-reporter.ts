import type { Reporter, TestModule } from 'vitest/node';
import { aggregateResults } from '../src/results/aggregate.ts';
import { collectMatrix, collectRecords } from './collect-records.ts';
import { formatMatrix } from './format-matrix.ts';
import { formatSummary } from './format-summary.ts';

/** Prints the seed-style conclusion table after a run that measured or checked any plugin. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const matrix = collectMatrix(testModules);
    if (matrix.length > 0)
      process.stdout.write(`\nauditbench compatibility matrix\n${formatMatrix(matrix)}\n`);
    const results = aggregateResults(collectRecords(testModules));
    if (results.length === 0) return;
    process.stdout.write(`\nauditbench summary\n${formatSummary(results)}\n`);
    for (const r of results) {
      if (r.measurement)
        process.stdout.write(
          `- ${r.title} on ${r.server.flavor} ${r.server.version}: ${r.measurement.reason}\n`,
        );
    }
  }
}
