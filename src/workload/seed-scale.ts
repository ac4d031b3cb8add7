/** The seed's machine and data: 10 tables × 10,000,000 rows (about 24 GB) on 64 GB of RAM. */
export const SEED_TABLE_ROWS = 10_000_000;
export const SEED_MEMORY_BYTES = 64 * 2 ** 30;
/** Rows per table are a whole number of steps, never fewer than the floor (standard's table size). */
export const SEED_ROWS_STEP = 10_000;
export const SEED_MIN_TABLE_ROWS = 100_000;

/**
 * Rows per table for the `seed` workload on a machine with this much memory: 10,000,000 × (RAM / 64 GiB), rounded
 * down to 10,000 rows, at most the seed's 10,000,000 and at least 100,000. The data-to-memory ratio is then the
 * seed's (about 24 GB against 64 GB, the buffer pool holding a fraction of the data), so its figure can sit
 * beside the seed's; rounding down never gives a machine more data for its memory than the seed had.
 */
export function seedTableSize(totalMemBytes: number): number {
  if (!Number.isFinite(totalMemBytes) || totalMemBytes <= 0) {
    throw new Error(
      `seedTableSize needs the machine's memory in bytes (os.totalmem()), got ${totalMemBytes}`,
    );
  }
  const scaled = SEED_TABLE_ROWS * (totalMemBytes / SEED_MEMORY_BYTES);
  const stepped = Math.floor(scaled / SEED_ROWS_STEP) * SEED_ROWS_STEP;
  return Math.min(SEED_TABLE_ROWS, Math.max(SEED_MIN_TABLE_ROWS, stepped));
}
