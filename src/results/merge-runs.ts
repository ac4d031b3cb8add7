import { z } from 'zod';
import type { MatrixCellRecord, PluginResult, ResultsFile } from './schema.ts';

/** One finished Vitest run in <report dir>/runs/index.json; its results are in `file`, next to the index. */
export const runIndexEntrySchema = z.object({
  /** The run's id (the one in history.jsonl). */
  id: z.string(),
  generatedAt: z.string(),
  /** File name inside runs/. */
  file: z.string(),
  results: z.number().int(),
  matrixCells: z.number().int(),
  titles: z.array(z.string()),
});
export const runIndexSchema = z.object({ runs: z.array(runIndexEntrySchema) });
export type RunIndexEntry = z.infer<typeof runIndexEntrySchema>;

/** A run's own results file: safe as a file name, sorts by time, unique by id. */
export function runFileName(id: string, generatedAt: string): string {
  return `${generatedAt.replace(/[:.]/g, '-')}-${id.slice(0, 8)}.json`;
}

export function indexEntry(id: string, file: ResultsFile): RunIndexEntry {
  return {
    id,
    generatedAt: file.generatedAt,
    file: runFileName(id, file.generatedAt),
    results: file.results.length,
    matrixCells: file.matrix?.length ?? 0,
    titles: [...new Set(file.results.map((r) => r.title))],
  };
}

// What one result stands for: the same configuration run (or plugin) on the same server with the same workload.
const resultKey = (r: PluginResult): string =>
  [r.runId ?? r.title, r.server.flavor, r.server.version, r.server.target, r.workload].join('\u0000');
const cellKey = (c: MatrixCellRecord): string =>
  [c.plugin, c.server.flavor, c.server.version, c.server.target, c.server.image ?? ''].join('\u0000');

/**
 * The results of several runs in one file: for each plugin × server × workload the latest run's result, so a run
 * that measured one plugin adds to an earlier full run instead of replacing it. `shownRuns` names the runs whose
 * results survive, oldest first; every result says which run measured it.
 */
export function mergeRuns(runs: { entry: RunIndexEntry; file: ResultsFile }[]): {
  file: ResultsFile;
  shownRuns: RunIndexEntry[];
} {
  const ordered = [...runs].sort((a, b) => a.entry.generatedAt.localeCompare(b.entry.generatedAt));
  const latest = ordered.at(-1);
  if (!latest) throw new Error('mergeRuns needs at least one run');
  const results = new Map<string, PluginResult>();
  const cells = new Map<string, MatrixCellRecord>();
  const from = new Map<string, string>();
  for (const { entry, file } of ordered) {
    for (const r of file.results) {
      results.set(resultKey(r), { ...r, measuredInRun: r.measuredInRun ?? entry.id });
      from.set(`r${resultKey(r)}`, entry.id);
    }
    for (const c of file.matrix ?? []) {
      cells.set(cellKey(c), c);
      from.set(`c${cellKey(c)}`, entry.id);
    }
  }
  const kept = new Set(from.values());
  const shownRuns = ordered.filter(({ entry }) => kept.has(entry.id)).map(({ entry }) => entry);
  const file: ResultsFile = {
    generatedAt: latest.file.generatedAt,
    machine: latest.file.machine,
    results: [...results.values()],
    ...(cells.size > 0 ? { matrix: [...cells.values()] } : {}),
    runs: shownRuns.map(({ id, generatedAt, file: name }) => ({ id, generatedAt, file: `runs/${name}` })),
  };
  return { file, shownRuns };
}
