import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { buildHtmlReport } from '../format/html-report.ts';
import type { ReportWriter } from './writer.ts';

/** Writes <report dir>/index.html: charts of this run's measurements and of the history. */
export const htmlReportWriter: ReportWriter = {
  what: 'write index.html',
  async write(run) {
    const html = await buildHtmlReport({ ...run, maxRegressionPp: run.policy.maxRegressionPp });
    await mkdir(run.config.reportDir, { recursive: true });
    const target = path.join(run.config.reportDir, 'index.html');
    await writeFileAtomic(target, html);
    process.stdout.write(`auditbench: wrote ${target}\n`);
  },
};
