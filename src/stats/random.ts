/** A seeded pseudo-random source: the same seed gives the same stream, so bootstraps and simulations repeat. */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Integer in [0, maxExclusive). */
  integer(maxExclusive: number): number;
  /** Normal draw (Box–Muller). */
  normal(mean: number, sd: number): number;
}

/** mulberry32: tiny, fast and good enough for resampling; not for cryptography. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    uniform,
    integer: (maxExclusive) => Math.floor(uniform() * maxExclusive),
    normal: (mean, sd) => {
      // 1 - uniform() lies in (0, 1], so the log never sees zero.
      const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
      return mean + sd * radius * Math.cos(2 * Math.PI * uniform());
    },
  };
}
