import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import writeFileAtomic from 'write-file-atomic';
import { reportWork } from './run-end.ts';

/** Writes <report dir>/results.json atomically, so a killed run never leaves half a file behind. */
export default class ResultsJsonReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    return reportWork(testModules, 'write results.json', async ({ config, file }) => {
      await mkdir(config.reportDir, { recursive: true });
      const target = path.join(config.reportDir, 'results.json');
      await writeFileAtomic(target, `${JSON.stringify(file, null, 2)}\n`);
      process.stdout.write(`\nauditbench: wrote ${target}\n`);
    });
  }
}
