import { recordRun } from '../../src/results/run-files.ts';
import type { ReportWriter } from './writer.ts';

/**
 * Writes this run's results to <report dir>/runs/ and results.json as the merge of every recorded run, so a run that
 * measured one plugin adds to a fuller earlier run instead of replacing it; the line says which runs it shows.
 */
export const resultsJsonWriter: ReportWriter = {
  what: 'write results.json',
  async write({ config, file, invocationId }) {
    const warn = (line: string) => process.stderr.write(`${line}\n`);
    const { results, runFile, shownRuns } = await recordRun(config.reportDir, invocationId, file, warn);
    const shown = shownRuns.map((run) => `${run.id.slice(0, 8)} (${run.generatedAt})`).join(', ');
    process.stdout.write(`\nauditbench: wrote ${runFile}; ${results} shows runs ${shown}\n`);
  },
};
