// The run-to-run spread τ (paired-overhead.ts) from repeated null controls, and what it does to their intervals.
//
// One run's interval is t·SE wide on the log scale, SE from the scatter of its own pairs. Repeated runs of the same
// null control scatter by √(SE² + τ²): the extra τ is whatever the minutes of one run share (the VM's speed that
// day, the server's state after a restart). The method of moments reads τ² as what the runs' estimates scatter
// beyond their own standard errors, var(estimates) − mean(SE²), floored at 0. With ten or twenty runs it is a rough
// figure: its own standard error is about τ²·√(2/(k−1)) plus the SE part's.
import { mean } from './descriptive.ts';
import { type Ci95Pct, ci95FromLogBounds } from './paired-overhead.ts';
import { tQuantile } from './student-t.ts';
import type { NonEmpty } from './tps-pair.ts';
import { trimmedDegreesOfFreedom } from './trimmed-mean.ts';

/** One run's estimate on the log scale, ln(on/off), with its within-run standard error and degrees of freedom. */
export interface RunOnLogScale {
  meanLog: number;
  seLog: number;
  degreesOfFreedom: number;
}

const logOf = (pct: number) => Math.log(1 - pct / 100);

/**
 * Recovers a run's log-scale figures from what results keep: its 95% interval in percent, its pairs and the τ the
 * interval already carries (the half-width is t·√(SE² + τ²); a run whose half-width is under t·τ has SE 0).
 */
export function runOnLogScale(
  ci95Pct: readonly [number, number],
  pairs: number,
  tauIncluded = 0,
): RunOnLogScale {
  if (!Number.isInteger(pairs) || pairs < 2)
    throw new Error(`pairs must be an integer of at least 2, got ${pairs}`);
  const [lowerPct, upperPct] = ci95Pct;
  if (!(Number.isFinite(lowerPct) && Number.isFinite(upperPct) && lowerPct <= upperPct && upperPct < 100)) {
    throw new Error(
      `ci95Pct must be a finite [lower, upper] with upper under 100, got [${lowerPct}, ${upperPct}]`,
    );
  }
  // A higher overhead is a lower ratio: the upper percent bound is the lower log bound.
  const lowerLog = logOf(upperPct);
  const upperLog = logOf(lowerPct);
  const degreesOfFreedom = trimmedDegreesOfFreedom(pairs);
  const combined = (upperLog - lowerLog) / 2 / tQuantile(0.975, degreesOfFreedom);
  const seLog = Math.sqrt(Math.max(0, combined ** 2 - tauIncluded ** 2));
  return { meanLog: (lowerLog + upperLog) / 2, seLog, degreesOfFreedom };
}

export interface RunToRunEstimate {
  runs: number;
  /** Standard deviation of the runs' estimates, log scale. */
  sdBetween: number;
  /** Root mean square of the runs' own standard errors, log scale. */
  rmsWithin: number;
  /** √max(0, sdBetween² − rmsWithin²). */
  tau: number;
}

/** τ by the method of moments; needs two runs at least. */
export function estimateRunToRun(runs: NonEmpty<RunOnLogScale>): RunToRunEstimate {
  if (runs.length < 2) throw new Error(`estimating τ needs at least 2 runs, got ${runs.length}`);
  const centre = mean(runs.map((r) => r.meanLog) as NonEmpty<number>);
  const between = runs.reduce((s, r) => s + (r.meanLog - centre) ** 2, 0) / (runs.length - 1);
  const within = mean(runs.map((r) => r.seLog ** 2) as NonEmpty<number>);
  return {
    runs: runs.length,
    sdBetween: Math.sqrt(between),
    rmsWithin: Math.sqrt(within),
    tau: Math.sqrt(Math.max(0, between - within)),
  };
}

/** The run's 95% interval in percent with run-to-run spread τ added: t·√(SE² + τ²) on the log scale. */
export function intervalWithTau(run: RunOnLogScale, tau: number): Ci95Pct {
  if (!(Number.isFinite(tau) && tau >= 0)) throw new Error(`tau must be at least 0, got ${tau}`);
  const half = tQuantile(0.975, run.degreesOfFreedom) * Math.hypot(run.seLog, tau);
  return ci95FromLogBounds(run.meanLog - half, run.meanLog + half);
}
