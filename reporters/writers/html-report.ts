import { mkdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { reportPath } from '../../src/results/safe-path.ts';
import { buildHtmlReport } from '../format/html-report.ts';
import type { ReportWriter } from './writer.ts';

/** Writes <report dir>/index.html: charts of this run's measurements and of the history. */
export const htmlReportWriter: ReportWriter = {
  what: 'write index.html',
  async write(run) {
    const html = await buildHtmlReport({ ...run, maxRegressionPp: run.policy.maxRegressionPp });
    const target = await reportPath(run.config.reportDir, 'index.html');
    await mkdir(run.config.reportDir, { recursive: true });
    await writeFileAtomic(target, html);
    process.stdout.write(`auditbench: wrote ${target}\n`);
  },
};
