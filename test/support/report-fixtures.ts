import { readFileSync } from 'node:fs';
import type { HtmlReportInput } from '../../reporters/format/html-report.ts';
import { compareWithBase } from '../../src/history/compare.ts';
import { toHistoryEntries } from '../../src/history/entry.ts';
import { parseHistory } from '../../src/history/parse-history.ts';
import { type PluginResult, type ResultsFile, resultsFileSchema } from '../../src/results/schema.ts';

const read = (name: string) =>
  readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8');

/**
 * For report tests: the recorded results.json plus a result whose measurement never finished, seen from a feature
 * branch against the recorded history.
 */
export function recordedReportInput(): HtmlReportInput {
  const recorded: ResultsFile = resultsFileSchema.parse(JSON.parse(read('results-smoke-server-audit.json')));
  const [measured] = recorded.results;
  if (!measured) throw new Error('fixtures/results/results-smoke-server-audit.json holds no result');
  const unmeasured: PluginResult = {
    ...measured,
    title: 'Unmeasured <plugin> & co',
    verdict: 'error',
    overheadPct: null,
    overheadCi95: null,
    measurement: null,
    calibration: null,
  };
  const file = { ...recorded, results: [measured, unmeasured] };
  // The recorded history used a made-up server version; align it so the trend and comparison have a base.
  const prior = parseHistory(read('history-torn.jsonl')).entries.map((e) => ({
    ...e,
    server: measured.server,
  }));
  const revision = { commit: 'e27add4e27add4e27add4', branch: 'feature/x' };
  const entries = toHistoryEntries(file, revision, 'run-now');
  const comparisons = compareWithBase(entries, prior, { baseBranch: 'main', maxRegressionPp: 5 });
  return { file, revision, entries, comparisons, prior, maxRegressionPp: 5 };
}
