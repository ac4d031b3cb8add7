import { appendHistory } from '../../src/history/history-store.ts';
import type { ReportWriter } from './writer.ts';

/** Appends this invocation's results to <report dir>/history.jsonl, the record later invocations compare against. */
export const historyWriter: ReportWriter = {
  what: 'append to the history',
  async write(snapshot) {
    for (const warning of snapshot.historyWarnings) process.stderr.write(`auditbench: warning: ${warning}\n`);
    await appendHistory(snapshot.historyFile, snapshot.entries);
    process.stdout.write(
      `auditbench: appended ${snapshot.entries.length} result(s) of ${snapshot.revision.commit.slice(0, 7)} (${snapshot.revision.branch}) to ${snapshot.historyFile}\n`,
    );
  },
};
