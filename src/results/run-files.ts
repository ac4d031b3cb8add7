import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { indexEntry, mergeRuns, type RunIndexEntry, runIndexSchema } from './merge-runs.ts';
import { reportPath } from './safe-path.ts';
import { type ResultsFile, resultsFileSchema } from './schema.ts';

const readJson = async (file: string): Promise<unknown> =>
  JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as unknown;

// write-file-atomic resolves a symbolic link and replaces its target: every component is checked first
// (src/results/safe-path.ts).
const writeJson = async (reportDir: string, names: string[], value: unknown): Promise<string> => {
  const file = await reportPath(reportDir, ...names);
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
};

/** The runs recorded so far; a results.json written before runs/ existed becomes the first run, not lost. */
async function earlierRuns(reportDir: string, warn: (line: string) => void) {
  const runsDir = path.join(reportDir, 'runs');
  const index = runIndexSchema.safeParse(await readJson(path.join(runsDir, 'index.json')));
  if (!index.success) {
    const legacy = resultsFileSchema.safeParse(await readJson(path.join(reportDir, 'results.json')));
    if (!legacy.success || legacy.data.runs) return [];
    const entry = indexEntry('earlier-results-json', legacy.data);
    await writeJson(reportDir, ['runs', entry.file], legacy.data);
    return [{ entry, file: legacy.data }];
  }
  const runs: { entry: RunIndexEntry; file: ResultsFile }[] = [];
  for (const entry of index.data.runs) {
    const file = resultsFileSchema.safeParse(await readJson(path.join(runsDir, entry.file)));
    if (file.success) runs.push({ entry, file: file.data });
    else
      warn(
        `auditbench: runs/${entry.file} is missing or unreadable; results.json leaves run ${entry.id} out`,
      );
  }
  return runs;
}

/**
 * Records one run: its own results file in runs/, an entry in runs/index.json, and results.json rewritten as the
 * merge of every recorded run (the latest result per plugin × server × workload). Each write is atomic.
 */
export async function recordRun(
  reportDir: string,
  id: string,
  file: ResultsFile,
  warn: (line: string) => void,
): Promise<{ results: string; runFile: string; shownRuns: RunIndexEntry[] }> {
  await mkdir(await reportPath(reportDir, 'runs'), { recursive: true });
  const earlier = await earlierRuns(reportDir, warn);
  const entry = indexEntry(id, file);
  const runFile = await writeJson(reportDir, ['runs', entry.file], file);
  const all = [...earlier.filter((run) => run.entry.id !== id), { entry, file }];
  await writeJson(reportDir, ['runs', 'index.json'], { runs: all.map((run) => run.entry) });
  const merged = mergeRuns(all);
  const results = await writeJson(reportDir, ['results.json'], merged.file);
  return { results, runFile, shownRuns: merged.shownRuns };
}
