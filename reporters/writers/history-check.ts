import { writeFile } from 'node:fs/promises';
import { baseStatus, describeBaseStatus, failsHistoryCheck } from '../../src/history/compare.ts';
import { formatCountedComparison } from '../../src/history/counted-compare.ts';
import { filesRunsRead } from '../../src/history/culprit-log.ts';
import { mdFence } from '../../src/markdown/markdown.ts';
import { reportPath } from '../../src/results/safe-path.ts';
import { formatComparison, formatHistoryVerdict } from '../format/format-comparison.ts';
import type { InvocationSnapshot } from '../invocation-snapshot.ts';
import { culpritLines } from './history-culprits.ts';
import type { ReportWriter } from './writer.ts';

/** The check's lines also as <report dir>/history-check.md, which the Action's summary step publishes. */
async function writeCheckMarkdown(snapshot: InvocationSnapshot, lines: readonly string[]): Promise<void> {
  const text = [
    `### auditbench vs ${snapshot.baseBranch}: the history check`,
    '',
    ...mdFence(lines),
    '',
  ].join('\n');
  await writeFile(await reportPath(snapshot.config.reportDir, 'history-check.md'), text);
}

// Workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
const annotation = (text: string): string =>
  `::error title=auditbench regression::${text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`;

/**
 * Compares each result with the pooled comparable entries of the base branch and fails the invocation (exit code 1) when
 * the overhead rose more than the configuration's maxRegressionPp (or AUDITBENCH_MAX_REGRESSION_PP). A reporter cannot fail a test, so the exit code says it.
 */
export const historyCheckWriter: ReportWriter = {
  what: 'compare with the history',
  async write(snapshot) {
    const { maxRegressionPp, inconclusive } = snapshot.policy;
    const { githubActions } = snapshot.config;
    const cannot = describeBaseStatus(
      baseStatus(snapshot.prior, snapshot.baseBranch),
      snapshot.config.baseRef,
      snapshot.baseBranch,
      snapshot.historyFile,
    );
    if (cannot) {
      // Gated, an unknown base fails closed; never a silent pass because every comparison became 'no base'.
      const failed = cannot.fails && maxRegressionPp !== null;
      const prefix = failed ? 'FAILED: ' : cannot.fails ? 'nothing compared (no limit set): ' : '';
      process.stdout.write(
        `\nauditbench vs ${snapshot.baseBranch}\nhistory check: ${prefix}${cannot.line}\n`,
      );
      await writeCheckMarkdown(snapshot, [`history check: ${prefix}${cannot.line}`]);
      if (!failed) return;
      process.exitCode = 1;
      if (githubActions) process.stdout.write(annotation(cannot.line));
      return;
    }
    const lines = snapshot.comparisons.map((c) => formatComparison(c, maxRegressionPp));
    const gatedRise = maxRegressionPp === null ? null : snapshot.policy.maxCountedRisePp;
    const countedLines = snapshot.countedComparisons.map((c) => formatCountedComparison(c, gatedRise));
    // Counts compare across machines: a decisive counted rise fails the check wherever the base was measured.
    const countedFailing = snapshot.countedComparisons.flatMap((c, i) =>
      c.kind === 'compared' && c.verdict === 'regressed' ? [countedLines[i] as string] : [],
    );
    const verdict = formatHistoryVerdict(snapshot.comparisons, {
      maxRegressionPp,
      inconclusive,
      baseBranch: snapshot.baseBranch,
    });
    const countedVerdict =
      countedFailing.length > 0
        ? `counted history check: FAILED against ${snapshot.baseBranch} (allowed rise ${gatedRise} pp of instructions): ${countedFailing.length} regressed`
        : null;
    // Where each failing rise began, and the commits between that touched what the runs read.
    const failing = [
      ...snapshot.comparisons
        .filter((c) => failsHistoryCheck(c, inconclusive))
        .map((comparison) => ({ channel: 'wall clock' as const, comparison })),
      ...snapshot.countedComparisons
        .filter((c) => c.kind === 'compared' && c.verdict === 'regressed')
        .map((comparison) => ({ channel: 'counted' as const, comparison })),
    ];
    const culprits = await culpritLines(
      failing,
      filesRunsRead(snapshot.config.configPath, snapshot.file.results),
    );
    const all = [
      ...[...lines, ...countedLines].map((l) => `- ${l}`),
      verdict.line,
      ...(countedVerdict ? [countedVerdict] : []),
      ...culprits.map((l) => `history check: ${l}`),
    ];
    process.stdout.write(`\nauditbench vs ${snapshot.baseBranch}\n${all.join('\n')}\n`);
    await writeCheckMarkdown(snapshot, all);
    if (!verdict.failed && !countedVerdict) return;
    process.exitCode = 1;
    if (githubActions) {
      for (const [i, c] of snapshot.comparisons.entries()) {
        if (failsHistoryCheck(c, inconclusive)) process.stdout.write(annotation(lines[i] ?? verdict.line));
      }
      for (const line of countedFailing) process.stdout.write(annotation(line));
    }
  },
};
