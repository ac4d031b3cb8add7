import { baseStatus, describeBaseStatus, failsGate } from '../../src/history/compare.ts';
import { formatComparison, formatGateVerdict } from '../format/format-comparison.ts';
import type { ReportWriter } from './writer.ts';

// Workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
const annotation = (text: string): string =>
  `::error title=auditbench regression::${text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`;

/**
 * Compares each result with the latest comparable run of the base branch and fails the run (exit code 1) when
 * the overhead rose more than AUDITBENCH_MAX_REGRESSION_PP. A reporter cannot fail a test, so the exit code says it.
 */
export const regressionGateWriter: ReportWriter = {
  what: 'compare with the history',
  write(run) {
    const { maxRegressionPp, inconclusive, githubActions } = run.config;
    const cannot = describeBaseStatus(
      baseStatus(run.prior, run.baseBranch),
      run.config.baseRef,
      run.baseBranch,
      run.historyFile,
    );
    if (cannot) {
      // Gated, an unknown base fails closed; never a silent pass because every comparison became 'no base'.
      const failed = cannot.fails && maxRegressionPp !== null;
      const prefix = failed ? 'FAILED: ' : cannot.fails ? 'nothing compared (no limit set): ' : '';
      process.stdout.write(`\nauditbench vs ${run.baseBranch}\nregression gate: ${prefix}${cannot.line}\n`);
      if (!failed) return;
      process.exitCode = 1;
      if (githubActions) process.stdout.write(annotation(cannot.line));
      return;
    }
    const lines = run.comparisons.map((c) => formatComparison(c, maxRegressionPp));
    const verdict = formatGateVerdict(run.comparisons, {
      maxRegressionPp,
      inconclusive,
      baseBranch: run.baseBranch,
    });
    process.stdout.write(
      `\nauditbench vs ${run.baseBranch}\n${lines.map((l) => `- ${l}`).join('\n')}\n${verdict.line}\n`,
    );
    if (!verdict.failed) return;
    process.exitCode = 1;
    if (githubActions) {
      for (const [i, c] of run.comparisons.entries()) {
        if (failsGate(c, inconclusive)) process.stdout.write(annotation(lines[i] ?? verdict.line));
      }
    }
  },
};
