/**
 * Which cells of the matrix a run measures (AUDITBENCH_MATRIX):
 * - sample (`./auditbench test`): on the first server of each kind (the local server, then one container per
 *   flavor), one cell expected to work, which proves that kind of server and the matrix code, plus every cell whose
 *   expected outcome is a claim of the project's (incompatible, crash-loop); the crash-loop probe too.
 * - all (`auditbench matrix`): every plugin × every server.
 * - a shard of all (`auditbench matrix --shard 2/3`): every third cell from the second on, so that a CI job matrix
 *   measures the whole table across its jobs (Vitest shards by file, and the matrix is one file).
 */
export type MatrixSelection =
  | { kind: 'sample' }
  | { kind: 'all' }
  | { kind: 'shard'; index: number; count: number };

export const matrixSelectionAdvice = "must be 'sample', 'all' or a shard of all such as 2/3";

/** Parses AUDITBENCH_MATRIX (or `--shard`'s value); throws the one-line advice for anything else. */
export function parseMatrixSelection(raw: string): MatrixSelection {
  const value = raw.trim();
  if (value === 'sample' || value === 'all') return { kind: value };
  const shard = /^(\d{1,3})\/(\d{1,3})$/.exec(value);
  const index = Number(shard?.[1]);
  const count = Number(shard?.[2]);
  if (shard && index >= 1 && count >= 1 && index <= count) return { kind: 'shard', index, count };
  throw new Error(`${matrixSelectionAdvice}; got '${raw}'`);
}
