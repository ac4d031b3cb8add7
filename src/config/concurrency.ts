import { z } from 'zod';

/** Where the server runs: `pinned` to CPU 0 with sysbench on CPU 1 (2+ CPUs, local), or on `all` CPUs unpinned. */
export type Cores = 'pinned' | 'all';
export const coresNames = ['pinned', 'all'] as const;

/** One point of a run's concurrency: its own measurement, with its own interval. */
export interface ConcurrencyPoint {
  threads: number;
  cores: Cores;
}

export const MAX_THREADS = 1024;
/** A run's `threads`: one count, or a list of counts (a sweep), each measured on its own. */
export const threadsAdvice = `must be a whole number from 1 to ${MAX_THREADS} or a list of up to 8 of them, e.g. [1, 4, 16]`;
const threadCount = z
  .number({ error: threadsAdvice })
  .int({ error: threadsAdvice })
  .min(1, { error: threadsAdvice })
  .max(MAX_THREADS, { error: threadsAdvice });
export const threadsSchema = z.union([threadCount, z.array(threadCount).min(1).max(8)], {
  error: threadsAdvice,
});
export const coresSchema = z.enum(coresNames, {
  error: "must be 'pinned' (server on CPU 0, sysbench on CPU 1) or 'all'",
});

/** The thread counts as a list in the given order, each kept once. */
export const threadList = (threads: number | number[]): number[] => [
  ...new Set(Array.isArray(threads) ? threads : [threads]),
];
