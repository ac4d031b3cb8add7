import { appendHistory } from '../../src/history/history-store.ts';
import type { ReportWriter } from './writer.ts';

/** Appends this run's results to <report dir>/history.jsonl, the record later runs compare against. */
export const historyWriter: ReportWriter = {
  what: 'append to the history',
  async write(run) {
    for (const warning of run.historyWarnings) process.stderr.write(`auditbench: warning: ${warning}\n`);
    await appendHistory(run.historyFile, run.entries);
    process.stdout.write(
      `auditbench: appended ${run.entries.length} result(s) of ${run.revision.commit.slice(0, 7)} (${run.revision.branch}) to ${run.historyFile}\n`,
    );
  },
};
