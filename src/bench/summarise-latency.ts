import type { Measurement } from '../results/schema.ts';
import { pairedLatencyChange } from '../stats/paired-latency.ts';
import { isNonEmpty } from '../stats/tps-pair.ts';
import type { Block } from './blocks.ts';

type LatencyRecord = NonNullable<Measurement['latency']>;

/**
 * The latency record of a measurement: its blocks' latency pairs pooled into one paired change, gated on
 * `maxP99IncreasePct` when the run sets one. Missing latency is recorded with its reason and never fails a run; a
 * block that measured none beside others that did is named, with its reason, in the measured record's reason.
 */
export function summariseLatency(blocks: readonly Block[], maxP99IncreasePct: number | null): LatencyRecord {
  const failed = blocks.flatMap((block, i) =>
    block.latency && !block.latency.ok ? [{ block: i + 1, reason: block.latency.reason }] : [],
  );
  const pairs = blocks.flatMap((block) => (block.latency?.ok ? block.latency.pairs : []));
  const skippedPairs = blocks.reduce((sum, b) => sum + (b.latency?.ok ? b.latency.skippedPairs : 0), 0);
  if (!isNonEmpty(pairs)) {
    const why =
      failed[0]?.reason ??
      (skippedPairs > 0
        ? `every pair's segments pooled too few transactions for a p99 (${skippedPairs} skipped)`
        : 'no block measured latency (the separate-runs design does not yet)');
    return { measured: false, reason: why };
  }
  const change = pairedLatencyChange(pairs);
  const gate = p99Gate(change.p99.changeCi95Pct, maxP99IncreasePct);
  return {
    measured: true,
    pairs: change.pairs,
    skippedPairs,
    trimmedEachSide: change.trimmedEachSide,
    offTransactions: change.offTransactions,
    onTransactions: change.onTransactions,
    p95: change.p95,
    p99: change.p99,
    maxP99IncreasePct,
    p99LimitFailed: gate.failed,
    reason: gate.reason + leftOut(failed, blocks.length),
  };
}

/** `; block 2 of 3 measured no latency (why)`: the blocks left out of a measured record, or nothing. */
function leftOut(failed: readonly { block: number; reason: string }[], blocks: number): string {
  return failed.map((f) => `; block ${f.block} of ${blocks} measured no latency (${f.reason})`).join('');
}

/** Fails only when the whole interval is above the limit, as the throughput gate does with its own. */
function p99Gate(
  ci95: [number, number] | null,
  limitPct: number | null,
): { failed: boolean; reason: string } {
  if (limitPct === null) return { failed: false, reason: 'no maxP99IncreasePct set' };
  if (ci95 === null)
    return { failed: false, reason: 'one pair gives no interval, so the p99 limit is not judged' };
  const shown = `[${ci95[0].toFixed(1)}, ${ci95[1].toFixed(1)}]%`;
  return ci95[0] > limitPct
    ? { failed: true, reason: `p99 rose by ${shown}, wholly above maxP99IncreasePct ${limitPct}%` }
    : { failed: false, reason: `p99 change ${shown} is not wholly above maxP99IncreasePct ${limitPct}%` };
}
