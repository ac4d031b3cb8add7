import type { NonEmpty } from './tps-pair.ts';

export function mean(values: NonEmpty<number>): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Sample standard deviation (n − 1 denominator); null for a single value, which has no spread to estimate. */
export function sampleSd(values: NonEmpty<number>): number | null {
  if (values.length < 2) return null;
  const center = mean(values);
  const squares = values.reduce((sum, value) => sum + (value - center) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}
