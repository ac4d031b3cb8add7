import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import writeFileAtomic from 'write-file-atomic';
import { buildHtmlReport } from './format/html-report.ts';
import { reportWork } from './run-end.ts';

/** Writes <report dir>/index.html: charts of this run's measurements and of the history. */
export default class HtmlReportReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    return reportWork(testModules, 'write index.html', async (run) => {
      const html = await buildHtmlReport({ ...run, maxRegressionPp: run.config.maxRegressionPp });
      await mkdir(run.config.reportDir, { recursive: true });
      const target = path.join(run.config.reportDir, 'index.html');
      await writeFileAtomic(target, html);
      process.stdout.write(`auditbench: wrote ${target}\n`);
    });
  }
}
