/** An array that cannot be empty: where emptiness is a bug, the type says so. */
export type NonEmpty<T> = [T, ...T[]];

/** Which side of the comparison a run or segment belongs to: the audit plugin disabled or enabled. */
export type Arm = 'off' | 'on';

/** Throughput of one interleaved pair, both arms run on the same data: plugin off and plugin on. */
export interface TpsPair {
  offTps: number;
  onTps: number;
}

export function isNonEmpty<T>(items: readonly T[]): items is NonEmpty<T> {
  return items.length > 0;
}

/** Throws, naming the field and value, unless `tps` is a positive finite throughput. */
export function assertPositiveTps(tps: number, field: string): void {
  if (!Number.isFinite(tps) || tps <= 0) {
    throw new Error(
      `${field} must be a positive finite TPS, got ${tps}: a run without throughput failed and cannot be compared; check its sysbench errors`,
    );
  }
}

/** ln(on/off) per pair, after checking every TPS; throws on an empty list even if a cast hid it from the type. */
export function logRatios(pairs: readonly TpsPair[]): NonEmpty<number> {
  if (!isNonEmpty(pairs)) {
    throw new Error('pairs must hold at least one {offTps, onTps} pair, got none');
  }
  const ratios = pairs.map((pair, index) => {
    assertPositiveTps(pair.offTps, `pairs[${index}].offTps`);
    assertPositiveTps(pair.onTps, `pairs[${index}].onTps`);
    return Math.log(pair.onTps / pair.offTps);
  });
  return ratios as NonEmpty<number>;
}
