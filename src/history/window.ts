// A new entry is judged against a window: the last HISTORY_WINDOW entries of the same identity on the default branch,
// pooled, so one noisy entry does not decide (Bencher's and CodSpeed's way). The pool's figure is the mean of the
// window's; its interval's half-width is the larger of what the entries' own intervals give the mean (√Σh²/n) and
// what their scatter gives it (t·s/√n). The change's half-width is then the larger of the two-sample one
// (√(h_now² + h_pool²), as compare.ts combines two runs) and a prediction interval from the window's scatter
// (t·s·√(1 + 1/n)): on a fresh runner each job, the scatter between entries is the noise a new entry carries.
import { tQuantile } from '../stats/student-t.ts';

/** A 95% interval, lower and upper bound. */
export type Ci95 = [lower: number, upper: number];

/** Five: enough for a scatter to mean something (4 degrees of freedom), few enough to follow a deliberate change. */
export const HISTORY_WINDOW = 5;

export interface Point {
  value: number;
  ci95: Ci95 | null;
}

const half = (ci: Ci95 | null): number => (ci ? (ci[1] - ci[0]) / 2 : 0);

/** The window's pooled figure and interval (see the top of this file); one entry is itself. */
export function pool(window: readonly Point[]): {
  value: number;
  halfWidth: number;
  scatterHalfWidth: number;
} {
  const n = window.length;
  if (n === 0) throw new Error('pool: an empty window has no figure');
  const mean = window.reduce((sum, p) => sum + p.value, 0) / n;
  const within = Math.sqrt(window.reduce((sum, p) => sum + half(p.ci95) ** 2, 0)) / n;
  if (n === 1) return { value: mean, halfWidth: within, scatterHalfWidth: 0 };
  const sd = Math.sqrt(window.reduce((sum, p) => sum + (p.value - mean) ** 2, 0) / (n - 1));
  const t = tQuantile(0.975, n - 1);
  return {
    value: mean,
    halfWidth: Math.max(within, (t * sd) / Math.sqrt(n)),
    scatterHalfWidth: t * sd * Math.sqrt(1 + 1 / n),
  };
}

/** The change from the pooled window to `current`, in points, with its 95% interval. */
export function changeFromWindow(
  window: readonly Point[],
  current: Point,
): { changePp: number; ci95: Ci95; pooledValue: number } {
  const pooled = pool(window);
  const changePp = current.value - pooled.value;
  const h = Math.max(Math.hypot(half(current.ci95), pooled.halfWidth), pooled.scatterHalfWidth);
  return { changePp, ci95: [changePp - h, changePp + h], pooledValue: pooled.value };
}

/**
 * Where a rise began (TiDB's regression bot names the same two commits): the series is the identity's entries on the
 * default branch, oldest first, ending with the failing one. Walking back, an entry is bad while its figure is more
 * than `limitPp` above the mean of the window before it; the first bad is the earliest of those, and the last good
 * the entry just before it. Null when the series has no entry before the failing one.
 */
export function lastGoodFirstBad<E>(
  series: readonly E[],
  value: (e: E) => number,
  limitPp: number,
): { lastGood: E; firstBad: E } | null {
  let bad = series.length - 1;
  while (bad - 1 >= 1) {
    const candidate = series[bad - 1] as E;
    const before = series.slice(Math.max(0, bad - 1 - HISTORY_WINDOW), bad - 1);
    const mean = before.reduce((sum, e) => sum + value(e), 0) / before.length;
    if (value(candidate) - mean <= limitPp) break;
    bad--;
  }
  if (bad < 1) return null;
  return { lastGood: series[bad - 1] as E, firstBad: series[bad] as E };
}
