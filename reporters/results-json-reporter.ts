import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import writeFileAtomic from 'write-file-atomic';
import { loadConfig } from '../src/config/env.ts';
import { aggregateResults } from '../src/results/aggregate.ts';
import { describeMachine } from '../src/results/machine.ts';
import { type ResultsFile, resultsFileSchema } from '../src/results/schema.ts';
import { collectRecords } from './collect-records.ts';

/** Writes <report dir>/results.json atomically, so a killed run never leaves half a file behind. */
export default class ResultsJsonReporter implements Reporter {
  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const results = aggregateResults(collectRecords(testModules));
    if (results.length === 0) return;
    const file: ResultsFile = resultsFileSchema.parse({
      generatedAt: new Date().toISOString(),
      machine: describeMachine(),
      results,
    });
    const dir = loadConfig().reportDir;
    await mkdir(dir, { recursive: true });
    const target = path.join(dir, 'results.json');
    await writeFileAtomic(target, `${JSON.stringify(file, null, 2)}\n`);
    process.stdout.write(`\nauditbench: wrote ${target}\n`);
  }
}
