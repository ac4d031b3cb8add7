import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { formatCountedComparison } from '../../src/history/counted-compare.ts';
import { machineFingerprint } from '../../src/history/entry.ts';
import { reportPath } from '../../src/results/safe-path.ts';
import { formatHistoryVerdict } from '../format/format-comparison.ts';
import { formatMarkdownSummary } from '../format/format-markdown.ts';
import type { ReportWriter } from './writer.ts';

/** Writes <report dir>/summary.md and, in GitHub Actions, appends it to the job summary. */
export const markdownSummaryWriter: ReportWriter = {
  what: 'write summary.md',
  async write(snapshot) {
    const { config, policy, file } = snapshot;
    const markdown = formatMarkdownSummary({
      results: file.results,
      comparisons: snapshot.comparisons,
      revision: snapshot.revision,
      baseBranch: snapshot.baseBranch,
      generatedAt: file.generatedAt,
      fingerprint: machineFingerprint(file.machine),
      maxRegressionPp: policy.maxRegressionPp,
      countedLines: snapshot.countedComparisons.map((c) =>
        formatCountedComparison(c, policy.maxRegressionPp === null ? null : policy.maxCountedRisePp),
      ),
      invocationId: snapshot.invocationId,
      gateLine: formatHistoryVerdict(snapshot.comparisons, { ...policy, baseBranch: snapshot.baseBranch })
        .line,
    });
    const target = await reportPath(config.reportDir, 'summary.md');
    await mkdir(config.reportDir, { recursive: true });
    await writeFile(target, markdown);
    if (config.githubStepSummary) await appendFile(config.githubStepSummary, `${markdown}\n`);
    process.stdout.write(`auditbench: wrote ${target}\n`);
  },
};
