// Transaction latencies as counts in log-spaced buckets, the form src/workload/latency-wrapper.lua prints.
// Bucket b holds [BASE_MS·2^(b/8), BASE_MS·2^((b+1)/8)): 8 buckets per doubling, so a bucket spans 9% and a
// quantile read with interpolation inside it is off by a few percent at most. Counts from any number of threads
// and seconds add up bucket by bucket, which is what pooling a segment's seconds needs.

/** Latency in the lowest bucket's lower edge, in ms (1 µs). */
export const BUCKET_BASE_MS = 0.001;
export const BUCKETS_PER_DOUBLING = 8;

/** Transactions by bucket index; indices absent hold none. */
export type LatencyHistogram = Map<number, number>;

/** Every thread's transactions that ended in one wall-clock slot, by bucket. */
export interface LatencySlot {
  /** Start of the slot, in ms since the epoch (the clock Date.now() reads). */
  startMs: number;
  counts: LatencyHistogram;
}

/** Lower and upper edge of bucket `index`, in ms. */
export function bucketEdgesMs(index: number): [lowerMs: number, upperMs: number] {
  return [
    BUCKET_BASE_MS * 2 ** (index / BUCKETS_PER_DOUBLING),
    BUCKET_BASE_MS * 2 ** ((index + 1) / BUCKETS_PER_DOUBLING),
  ];
}

/**
 * The bucket a latency falls in, as the Lua wrapper's `bucket_of` computes it (anything at or below 1 µs in bucket
 * 0). For tests only: they build histograms with it and hold it inside bucketEdgesMs; the harness reads the Lua's
 * bucket indices as printed, and nothing checks the Lua against this copy, so a change to one is a change to both.
 */
export function bucketOf(latencyMs: number): number {
  if (!(latencyMs > BUCKET_BASE_MS)) return 0;
  return Math.floor(Math.log2(latencyMs / BUCKET_BASE_MS) * BUCKETS_PER_DOUBLING);
}

/** Adds `from`'s counts into `into` and returns it. */
export function addInto(into: LatencyHistogram, from: LatencyHistogram): LatencyHistogram {
  for (const [bucket, count] of from) into.set(bucket, (into.get(bucket) ?? 0) + count);
  return into;
}

export function totalCount(histogram: LatencyHistogram): number {
  let total = 0;
  for (const count of histogram.values()) total += count;
  return total;
}

/**
 * The `probability` quantile in ms, or null for an empty histogram. The rank falls in one bucket, and inside it
 * the value is interpolated on the log scale (latencies are assumed spread evenly in log time within a bucket).
 */
export function quantileMs(histogram: LatencyHistogram, probability: number): number | null {
  if (!(probability > 0 && probability < 1)) {
    throw new Error(`probability must be between 0 and 1 (exclusive), got ${probability}`);
  }
  const total = totalCount(histogram);
  if (total === 0) return null;
  const rank = probability * total;
  let below = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    const count = histogram.get(bucket) ?? 0;
    if (count > 0 && below + count >= rank) {
      const [lowerMs, upperMs] = bucketEdgesMs(bucket);
      return lowerMs * (upperMs / lowerMs) ** ((rank - below) / count);
    }
    below += count;
  }
  return bucketEdgesMs(Math.max(...histogram.keys()))[1];
}
