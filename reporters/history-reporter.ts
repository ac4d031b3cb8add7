import type { Reporter, TestModule } from 'vitest/node';
import { appendHistory } from '../src/history/history-store.ts';
import { reportWork } from './run-end.ts';

/** Appends this run's results to <report dir>/history.jsonl, the record later runs compare against. */
export default class HistoryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    return reportWork(testModules, 'append to the history', async (run) => {
      for (const warning of run.historyWarnings) process.stderr.write(`auditbench: warning: ${warning}\n`);
      await appendHistory(run.historyFile, run.entries);
      process.stdout.write(
        `auditbench: appended ${run.entries.length} result(s) of ${run.revision.commit.slice(0, 7)} (${run.revision.branch}) to ${run.historyFile}\n`,
      );
    });
  }
}
