// Overlapping Allan deviation of a series sampled once per base interval (here: ln TPS per second). It says how
// much averaging over τ seconds still buys: white noise falls as 1/√τ, a slow wander (random walk) rises as √τ,
// and where the curve flattens, longer segments stop paying for themselves.
//
// For averages ȳ_j(m) of m consecutive samples starting at j, with N samples and M = N − 2m + 1 terms:
//   σ²(m) = 1 / (2M) · Σ_{j=1..M} (ȳ_{j+m}(m) − ȳ_j(m))²
// White noise of variance s² gives E σ²(m) = s²/m exactly (two disjoint m-averages differ with variance 2s²/m),
// so σ(τ) = s/√τ with τ counted in base intervals. A random walk with step variance q² gives
// E σ²(m) = q²(2m² + 1)/(6m), about q²m/3: σ grows as √τ.

/** One τ of an Allan curve, kept as a sum so runs can be pooled before the square root. */
export interface AllanTerm {
  /** Averaging length in base intervals. */
  m: number;
  /** Σ (ȳ_{j+m} − ȳ_j)² / 2 over every overlapping j. */
  halfSquareSum: number;
  /** How many differences went into the sum (N − 2m + 1); 0 when the series is shorter than 2m. */
  terms: number;
}

function checkM(m: number): void {
  if (!Number.isInteger(m) || m < 1)
    throw new Error(`The averaging length m must be a whole number ≥ 1, got ${m}`);
}

/** The overlapping Allan sum of one series at averaging length m (prefix sums: O(N)). */
export function allanTerm(series: readonly number[], m: number): AllanTerm {
  checkM(m);
  const terms = series.length - 2 * m + 1;
  if (terms < 1) return { m, halfSquareSum: 0, terms: 0 };
  const prefix = [0];
  for (const value of series) prefix.push((prefix.at(-1) ?? 0) + value);
  const at = (i: number) => prefix[i] ?? Number.NaN;
  let halfSquareSum = 0;
  for (let j = 0; j < terms; j++) {
    const difference = (at(j + 2 * m) - 2 * at(j + m) + at(j)) / m;
    halfSquareSum += (difference * difference) / 2;
  }
  return { m, halfSquareSum, terms };
}

/** Pools the sums of several runs at one m (each difference weighs the same) into a deviation; null without terms. */
export function pooledDeviation(parts: readonly AllanTerm[]): number | null {
  const terms = parts.reduce((n, part) => n + part.terms, 0);
  if (terms === 0) return null;
  return Math.sqrt(parts.reduce((sum, part) => sum + part.halfSquareSum, 0) / terms);
}

/** Overlapping Allan deviation of one series at averaging length m; null when the series is shorter than 2m. */
export function allanDeviation(series: readonly number[], m: number): number | null {
  return pooledDeviation([allanTerm(series, m)]);
}

export interface AllanPoint {
  tauS: number;
  /** Pooled over every series long enough for this τ; null when none was. */
  deviation: number | null;
  /** σ(1 base interval)/√τ: what white noise of the same one-interval deviation would give. */
  whiteNoise: number | null;
  terms: number;
}

/** The pooled curve of several series (runs) at the given τ values, beside what white noise would give. */
export function allanCurve(
  series: readonly (readonly number[])[],
  tausS: readonly number[],
  baseIntervalS = 1,
): AllanPoint[] {
  const one = pooledDeviation(series.map((s) => allanTerm(s, 1)));
  return tausS.map((tauS) => {
    const m = tauS / baseIntervalS;
    const parts = series.map((s) => allanTerm(s, m));
    return {
      tauS,
      deviation: pooledDeviation(parts),
      whiteNoise: one === null ? null : one / Math.sqrt(m),
      terms: parts.reduce((n, part) => n + part.terms, 0),
    };
  });
}
