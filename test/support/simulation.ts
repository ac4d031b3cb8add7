// Synthetic experiments with a known true overhead, for checking intervals, verdicts and stopping rules.
import type { Rng } from '../../src/stats/random.ts';
import type { NonEmpty, TpsPair } from '../../src/stats/tps-pair.ts';

export interface PairSimulation {
  pairCount: number;
  /** The overhead every on-run carries, before noise: on = off-level · (1 − trueOverheadPct/100). */
  trueOverheadPct: number;
  /** Per-run multiplicative noise, as the sd of ln(TPS); 0.02 is about what 10 s runs show here. */
  runNoiseSd: number;
  /** Pair-to-pair level, normal around baseTps; it cancels within a pair, as fresh data would. */
  baseTps?: number;
  baseSdTps?: number;
}

/** Draws `pairCount` pairs. Noise is log-normal so the true geometric-mean ratio is exactly 1 − overhead. */
export function simulatePairs(options: PairSimulation, rng: Rng): NonEmpty<TpsPair> {
  const { pairCount, trueOverheadPct, runNoiseSd, baseTps = 1_000, baseSdTps = 40 } = options;
  if (!Number.isInteger(pairCount) || pairCount < 1) {
    throw new Error(`pairCount must be a positive integer, got ${pairCount}`);
  }
  const draw = (): TpsPair => {
    const levelTps = Math.max(1, rng.normal(baseTps, baseSdTps));
    return {
      offTps: levelTps * Math.exp(rng.normal(0, runNoiseSd)),
      onTps: levelTps * (1 - trueOverheadPct / 100) * Math.exp(rng.normal(0, runNoiseSd)),
    };
  };
  const pairs: NonEmpty<TpsPair> = [draw()];
  for (let index = 1; index < pairCount; index++) pairs.push(draw());
  return pairs;
}
