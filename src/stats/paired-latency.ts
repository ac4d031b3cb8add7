// The plugin's effect on tail latency, paired across segments the way throughput is (paired-overhead.ts): each
// pair of adjacent off/on segments gives ln(q_on/q_off) for its pooled p95 and p99, and the interval is a t
// interval on those log-ratios, with the same 20% Yuen trimming. Why the same method: a pair's two segments share
// the data and the minute, so drift cancels inside it; on the log scale a ratio is symmetric and the per-pair
// values of a quantile read from a few hundred transactions are close enough to normal for the t interval, and
// the trimming keeps a pair that straddled one of this VM's speed steps from deciding it. Unlike throughput no
// run-to-run spread (τ) is added: it was measured for TPS only, so this interval is the within-run one.
import { addInto, type LatencyHistogram, quantileMs, totalCount } from './latency-histogram.ts';
import type { LatencyPair } from './latency-segments.ts';
import { tQuantile } from './student-t.ts';
import type { NonEmpty } from './tps-pair.ts';
import { DEFAULT_TRIM, yuenTrimmedMean } from './trimmed-mean.ts';

export const LATENCY_QUANTILES = { p95: 0.95, p99: 0.99 } as const;
export type LatencyQuantile = keyof typeof LATENCY_QUANTILES;

/** How one quantile moved when the plugin was on: positive is slower. */
export interface QuantileChange {
  /** The quantile of every paired off (on) segment's transactions pooled, in ms. */
  offMs: number;
  onMs: number;
  /** 100·(exp(trimmed mean ln(on/off)) − 1). */
  changePct: number;
  /** The same ratio as a change of the off arm's pooled quantile: offMs·(exp(mean) − 1). */
  changeMs: number;
  /** 95% intervals; null with one pair. */
  changeCi95Pct: [lowerPct: number, upperPct: number] | null;
  changeCi95Ms: [lowerMs: number, upperMs: number] | null;
  perPairChangePct: NonEmpty<number>;
}

export interface LatencyChange {
  pairs: number;
  trimmedEachSide: number;
  offTransactions: number;
  onTransactions: number;
  p95: QuantileChange;
  p99: QuantileChange;
}

const changePctOf = (logRatio: number) => 100 * (Math.exp(logRatio) - 1);

/** p95 and p99 change over the pairs, with 95% intervals from 2 pairs on. */
export function pairedLatencyChange(
  pairs: NonEmpty<LatencyPair>,
  options: { trim?: number } = {},
): LatencyChange {
  const trim = options.trim ?? DEFAULT_TRIM;
  const pooled: Pooled = {
    off: pairs.reduce((all, pair) => addInto(all, pair.off), new Map() as LatencyHistogram),
    on: pairs.reduce((all, pair) => addInto(all, pair.on), new Map() as LatencyHistogram),
  };
  const change = (name: LatencyQuantile) => quantileChange(pairs, LATENCY_QUANTILES[name], pooled, trim);
  const p99 = change('p99');
  return {
    pairs: pairs.length,
    trimmedEachSide: yuenTrimmedMean(p99.logRatios, trim).trimmedEachSide,
    offTransactions: totalCount(pooled.off),
    onTransactions: totalCount(pooled.on),
    p95: change('p95').figures,
    p99: p99.figures,
  };
}

/** Each arm's histograms over all pairs, added together. */
interface Pooled {
  off: LatencyHistogram;
  on: LatencyHistogram;
}

function quantileChange(
  pairs: NonEmpty<LatencyPair>,
  probability: number,
  pooled: Pooled,
  trim: number,
): { figures: QuantileChange; logRatios: NonEmpty<number> } {
  const logRatios = pairs.map((pair, index) => {
    const offMs = quantileMs(pair.off, probability);
    const onMs = quantileMs(pair.on, probability);
    if (!(offMs && onMs)) throw new Error(`pairs[${index}] has an empty histogram: pool transactions first`);
    return Math.log(onMs / offMs);
  }) as NonEmpty<number>;
  const offMs = quantileMs(pooled.off, probability) ?? Number.NaN;
  const onMs = quantileMs(pooled.on, probability) ?? Number.NaN;
  const centre = yuenTrimmedMean(logRatios, trim);
  const toMs = (logRatio: number) => offMs * (Math.exp(logRatio) - 1);
  let changeCi95Pct: QuantileChange['changeCi95Pct'] = null;
  let changeCi95Ms: QuantileChange['changeCi95Ms'] = null;
  if (centre.standardError !== null) {
    const halfWidth = tQuantile(0.975, centre.degreesOfFreedom) * centre.standardError;
    const [lower, upper] = [centre.mean - halfWidth, centre.mean + halfWidth];
    changeCi95Pct = [changePctOf(lower), changePctOf(upper)];
    changeCi95Ms = [toMs(lower), toMs(upper)];
  }
  const figures: QuantileChange = {
    offMs,
    onMs,
    changePct: changePctOf(centre.mean),
    changeMs: toMs(centre.mean),
    changeCi95Pct,
    changeCi95Ms,
    perPairChangePct: logRatios.map(changePctOf) as NonEmpty<number>,
  };
  return { figures, logRatios };
}
