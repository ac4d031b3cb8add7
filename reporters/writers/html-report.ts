import { mkdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { reportPath } from '../../src/results/safe-path.ts';
import { buildHtmlReport } from '../format/html-report.ts';
import type { ReportWriter } from './writer.ts';

/** Writes <report dir>/index.html: charts of this invocation's measurements and of the history. */
export const htmlReportWriter: ReportWriter = {
  what: 'write index.html',
  async write(snapshot) {
    const html = await buildHtmlReport({ ...snapshot, maxRegressionPp: snapshot.policy.maxRegressionPp });
    const target = await reportPath(snapshot.config.reportDir, 'index.html');
    await mkdir(snapshot.config.reportDir, { recursive: true });
    await writeFileAtomic(target, html);
    process.stdout.write(`auditbench: wrote ${target}\n`);
  },
};
