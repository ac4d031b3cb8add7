import jStat from 'jstat';
import type { NonEmpty } from './tps-pair.ts';

export function mean(values: NonEmpty<number>): number {
  return jStat.mean(values);
}

export function median(values: NonEmpty<number>): number {
  return jStat.median(values);
}

/** Sample standard deviation (n − 1 denominator); null for a single value, which has no spread to estimate. */
export function sampleSd(values: NonEmpty<number>): number | null {
  if (values.length < 2) return null;
  return jStat.stdev(values, true);
}
