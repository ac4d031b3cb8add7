import { z } from 'zod';
import type { MatrixCellRecord, PluginResult, ResultsFile } from './schema.ts';

/** One finished invocation in <report dir>/runs/index.json; its results are in `file`, next to the index. */
export const invocationIndexEntrySchema = z.object({
  /** The invocation's id (its entries' `invocationId` in history.jsonl). */
  id: z.string(),
  generatedAt: z.string(),
  /** File name inside runs/. */
  file: z.string(),
  results: z.number().int(),
  matrixCells: z.number().int(),
  titles: z.array(z.string()),
});
/** runs/index.json; one written before the names were settled lists its invocations as `runs`, read alike. */
export const invocationIndexSchema = z.preprocess(
  (value) =>
    typeof value === 'object' && value !== null && !('invocations' in value) && 'runs' in value
      ? { invocations: (value as { runs: unknown }).runs }
      : value,
  z.object({ invocations: z.array(invocationIndexEntrySchema) }),
);
export type InvocationIndexEntry = z.infer<typeof invocationIndexEntrySchema>;

/** An invocation's own results file: safe as a file name, sorts by time, unique by id. */
export function invocationFileName(id: string, generatedAt: string): string {
  return `${generatedAt.replace(/[:.]/g, '-')}-${id.slice(0, 8)}.json`;
}

export function indexEntry(id: string, file: ResultsFile): InvocationIndexEntry {
  return {
    id,
    generatedAt: file.generatedAt,
    file: invocationFileName(id, file.generatedAt),
    results: file.results.length,
    matrixCells: file.matrix?.length ?? 0,
    titles: [...new Set(file.results.map((r) => r.title))],
  };
}

// What one result stands for: the same configured run (or plugin) on the same server with the same workload.
const resultKey = (r: PluginResult): string =>
  [r.runId ?? r.title, r.server.flavor, r.server.version, r.server.target, r.workload].join('\u0000');
const cellKey = (c: MatrixCellRecord): string =>
  [c.plugin, c.server.flavor, c.server.version, c.server.target, c.server.image ?? ''].join('\u0000');

/**
 * The results of several invocations in one file: for each plugin × server × workload the latest invocation's
 * result, so an invocation that measured one plugin adds to an earlier full one instead of replacing it.
 * `shownInvocations` names the invocations whose results survive, oldest first; every result says which invocation
 * measured it.
 */
export function mergeInvocations(invocations: { entry: InvocationIndexEntry; file: ResultsFile }[]): {
  file: ResultsFile;
  shownInvocations: InvocationIndexEntry[];
} {
  const ordered = [...invocations].sort((a, b) => a.entry.generatedAt.localeCompare(b.entry.generatedAt));
  const latest = ordered.at(-1);
  if (!latest) throw new Error('mergeInvocations needs at least one invocation');
  const results = new Map<string, PluginResult>();
  const cells = new Map<string, MatrixCellRecord>();
  const from = new Map<string, string>();
  for (const { entry, file } of ordered) {
    for (const r of file.results) {
      results.set(resultKey(r), { ...r, invocationId: r.invocationId ?? entry.id });
      from.set(`r${resultKey(r)}`, entry.id);
    }
    for (const c of file.matrix ?? []) {
      cells.set(cellKey(c), c);
      from.set(`c${cellKey(c)}`, entry.id);
    }
  }
  const kept = new Set(from.values());
  const shownInvocations = ordered.filter(({ entry }) => kept.has(entry.id)).map(({ entry }) => entry);
  const file: ResultsFile = {
    generatedAt: latest.file.generatedAt,
    machine: latest.file.machine,
    results: [...results.values()],
    ...(cells.size > 0 ? { matrix: [...cells.values()] } : {}),
    invocations: shownInvocations.map(({ id, generatedAt, file: name }) => ({
      id,
      generatedAt,
      file: `runs/${name}`,
    })),
  };
  return { file, shownInvocations };
}
