import type { Reporter, TestModule } from 'vitest/node';
import { aggregateResults } from '../src/results/aggregate.ts';
import { collectMatrix, collectRecords } from './collect-records.ts';
import { formatCompletenessText } from './format/format-completeness.ts';
import { formatMatrix } from './format/format-matrix.ts';
import { formatPerEventText } from './format/format-per-event.ts';
import { formatSeedTableText, seedTable } from './format/format-seed-table.ts';
import { formatSummary } from './format/format-summary.ts';
import { formatVariantsText, variantGroups } from './format/format-variants.ts';

/**
 * Prints, within 120 columns, a row per plugin after a run that measured or checked any, and the seed's comparison
 * table when server_audit or McAfee AUDIT was measured.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const matrix = collectMatrix(testModules);
    if (matrix.length > 0)
      process.stdout.write(`\nauditbench compatibility matrix\n${formatMatrix(matrix)}\n`);
    const results = aggregateResults(collectRecords(testModules));
    if (results.length === 0) return;
    process.stdout.write(`\nauditbench summary\n${formatSummary(results)}\n`);
    const variants = variantGroups(results);
    if (variants.length > 0)
      process.stdout.write(`\nauditbench configurations compared\n${formatVariantsText(variants)}\n`);
    const completeness = formatCompletenessText(results);
    if (completeness) process.stdout.write(`\nauditbench completeness\n${completeness}\n`);
    const perEvent = formatPerEventText(results);
    if (perEvent) process.stdout.write(`\nauditbench cost per audited event\n${perEvent}\n`);
    const seed = seedTable(results);
    if (seed)
      process.stdout.write(`\nThe seed's comparison, this run beside it\n${formatSeedTableText(seed)}\n`);
  }
}
