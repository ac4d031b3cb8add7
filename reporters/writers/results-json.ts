import { recordInvocation } from '../../src/results/invocation-files.ts';
import type { ReportWriter } from './writer.ts';

/**
 * Writes this invocation's results to <report dir>/runs/ and results.json as the merge of every recorded invocation,
 * so one that measured one plugin adds to a fuller earlier one instead of replacing it; the line says which
 * invocations it shows.
 */
export const resultsJsonWriter: ReportWriter = {
  what: 'write results.json',
  async write({ config, file, invocationId }) {
    const warn = (line: string) => process.stderr.write(`${line}\n`);
    const { results, invocationFile, shownInvocations } = await recordInvocation(
      config.reportDir,
      invocationId,
      file,
      warn,
    );
    const shown = shownInvocations.map((one) => `${one.id.slice(0, 8)} (${one.generatedAt})`).join(', ');
    process.stdout.write(`\nauditbench: wrote ${invocationFile}; ${results} shows invocations ${shown}\n`);
  },
};
