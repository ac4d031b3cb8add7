// Coverage of a 95% interval, measured: how often, over repeated null controls, the interval contains the true
// value (0 for A/A and for a plugin that does no work), with a Wilson score interval for that fraction.
//
// Wilson rather than the plain p ± z·√(p(1−p)/n): with coverage near 1 and 20 runs, the plain interval
// collapses to zero width at 20/20 and can reach past 100%; Wilson stays inside [0, 1] and keeps close to its
// nominal level for small n (Brown, Cai & DasGupta 2001, "Interval Estimation for a Binomial Proportion").

/** z for a two-sided 95% interval, the 0.975 quantile of the standard normal. */
const Z_95 = 1.959963984540054;

/** Wilson score 95% interval for `successes` out of `trials`, as fractions in [0, 1]. */
export function wilsonInterval(successes: number, trials: number): [lower: number, upper: number] {
  if (!Number.isInteger(trials) || trials < 1)
    throw new Error(`trials must be a positive integer, got ${trials}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new Error(`successes must be an integer from 0 to trials (${trials}), got ${successes}`);
  }
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** One null-control run: which condition and design it ran under, and its 95% interval for the overhead. */
export interface NullRun {
  condition: string;
  design: string;
  ci95Pct: [number, number];
  /** Half-width of the interval, in percentage points, for the price of coverage. */
  estimatePct: number;
}

export interface CoverageCell {
  condition: string;
  design: string;
  runs: number;
  containing: number;
  fraction: number;
  fractionCi95: [number, number];
  meanHalfWidthPp: number;
  /** Runs whose interval missed 0, as estimate [lower, upper]. */
  misses: string[];
}

/** Fraction of intervals containing `truePct` (0 for a null control) per condition × design, in first-seen order. */
export function coverageByCell(runs: readonly NullRun[], truePct = 0): CoverageCell[] {
  const cells = new Map<string, NullRun[]>();
  for (const run of runs) {
    const key = `${run.condition}\u0000${run.design}`;
    cells.set(key, [...(cells.get(key) ?? []), run]);
  }
  return [...cells.values()].map((group) => {
    const hits = group.filter((r) => r.ci95Pct[0] <= truePct && truePct <= r.ci95Pct[1]);
    const first = group[0] as NullRun;
    return {
      condition: first.condition,
      design: first.design,
      runs: group.length,
      containing: hits.length,
      fraction: hits.length / group.length,
      fractionCi95: wilsonInterval(hits.length, group.length),
      meanHalfWidthPp: group.reduce((s, r) => s + (r.ci95Pct[1] - r.ci95Pct[0]) / 2, 0) / group.length,
      misses: group
        .filter((r) => !hits.includes(r))
        .map((r) => `${r.estimatePct.toFixed(1)} [${r.ci95Pct[0].toFixed(1)}, ${r.ci95Pct[1].toFixed(1)}]`),
    };
  });
}

const pct = (f: number) => `${(100 * f).toFixed(0)}%`;

/** One line per cell: "quiet · A/A: 19 of 20 intervals contain 0 (95% [76%, 99%]), mean half-width 1.8 pp". */
export function formatCoverage(cells: readonly CoverageCell[]): string {
  return cells
    .map(
      (c) =>
        `${c.condition} · ${c.design}: ${c.containing} of ${c.runs} intervals contain 0 = ${pct(c.fraction)} (95% [${pct(c.fractionCi95[0])}, ${pct(c.fractionCi95[1])}]), mean half-width ${c.meanHalfWidthPp.toFixed(2)} pp${c.misses.length > 0 ? `; missed: ${c.misses.join(', ')}` : ''}`,
    )
    .join('\n');
}
