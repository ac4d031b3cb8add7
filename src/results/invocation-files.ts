import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {
  type InvocationIndexEntry,
  indexEntry,
  invocationIndexSchema,
  mergeInvocations,
} from './merge-invocations.ts';
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

/** The invocations recorded so far; a results.json written before runs/ existed becomes the first one, not lost. */
async function earlierInvocations(reportDir: string, warn: (line: string) => void) {
  const runsDir = path.join(reportDir, 'runs');
  const index = invocationIndexSchema.safeParse(await readJson(path.join(runsDir, 'index.json')));
  if (!index.success) {
    const legacy = resultsFileSchema.safeParse(await readJson(path.join(reportDir, 'results.json')));
    if (!legacy.success || legacy.data.invocations) return [];
    const entry = indexEntry('earlier-results-json', legacy.data);
    await writeJson(reportDir, ['runs', entry.file], legacy.data);
    return [{ entry, file: legacy.data }];
  }
  const invocations: { entry: InvocationIndexEntry; file: ResultsFile }[] = [];
  for (const entry of index.data.invocations) {
    const file = resultsFileSchema.safeParse(await readJson(path.join(runsDir, entry.file)));
    if (file.success) invocations.push({ entry, file: file.data });
    else
      warn(
        `auditbench: runs/${entry.file} is missing or unreadable; results.json leaves invocation ${entry.id} out`,
      );
  }
  return invocations;
}

/**
 * Records one invocation: its own results file in runs/, an entry in runs/index.json, and results.json rewritten as
 * the merge of every recorded invocation (the latest result per plugin × server × workload). Each write is atomic.
 */
export async function recordInvocation(
  reportDir: string,
  id: string,
  file: ResultsFile,
  warn: (line: string) => void,
): Promise<{ results: string; invocationFile: string; shownInvocations: InvocationIndexEntry[] }> {
  await mkdir(await reportPath(reportDir, 'runs'), { recursive: true });
  const earlier = await earlierInvocations(reportDir, warn);
  const entry = indexEntry(id, file);
  const invocationFile = await writeJson(reportDir, ['runs', entry.file], file);
  const all = [...earlier.filter((one) => one.entry.id !== id), { entry, file }];
  await writeJson(reportDir, ['runs', 'index.json'], { invocations: all.map((one) => one.entry) });
  const merged = mergeInvocations(all);
  const results = await writeJson(reportDir, ['results.json'], merged.file);
  return { results, invocationFile, shownInvocations: merged.shownInvocations };
}
