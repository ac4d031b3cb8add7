// Two toggle designs compared on the same null controls (bench:coverage with AUDITBENCH_STUDY='designs=own,aligned'):
// how wide one run's own interval is per minute of measuring, how far runs scatter beyond it (τ, run-to-run.ts), and
// how often the intervals contain 0 once they carry that τ.
import { type NullRun, wilsonInterval } from './coverage.ts';
import { mean } from './descriptive.ts';
import { halfWidth } from './paired-overhead.ts';
import { estimateRunToRun, intervalWithTau, type RunOnLogScale, runOnLogScale } from './run-to-run.ts';
import { isNonEmpty, type NonEmpty } from './tps-pair.ts';

/** One null-control interval, with the design it was measured in and what it cost. */
export interface DesignRun extends NullRun {
  segmentDesign: string;
  pairs: number;
  /** Seconds the measured block covered (warm-up left out). */
  measuredS: number;
  /** Wall time of the whole measurement, warm-up included. */
  wallS: number;
  /** τ the run's interval already carries (the workload's runToRunSdLog). */
  runToRunSdLog: number;
}

export interface DesignFigures {
  /** A condition, or 'all' for the runs of every condition together. */
  condition: string;
  segmentDesign: string;
  runs: number;
  meanPairs: number;
  /** The within-run half-width (τ taken out), in pp, averaged over the runs. */
  withinHalfWidthPp: number;
  /** Each run's within-run half-width scaled to one minute as 1/√t, over measured and over wall seconds. */
  perMeasuredMinutePp: number;
  perWallMinutePp: number;
  meanWallS: number;
  /** Standard deviation of the runs' estimates, in pp. */
  sdEstimatePp: number;
  /** τ by the method of moments, log scale (0.01 ≈ 1 pp), and the intervals once they carry it (in-sample). */
  tau: number;
  withTauHalfWidthPp: number;
  withTauContaining: number;
  withTauCi95: [number, number];
}

function figures(
  condition: string,
  segmentDesign: string,
  group: readonly DesignRun[],
): DesignFigures | null {
  const usable = group.filter((r) => Number.isFinite(r.ci95Pct[0]) && r.pairs >= 2);
  if (!isNonEmpty(usable) || usable.length < 2) return null;
  const onLog: RunOnLogScale[] = usable.map((r) => runOnLogScale(r.ci95Pct, r.pairs, r.runToRunSdLog));
  const within = onLog.map((r) => halfWidth(intervalWithTau(r, 0)));
  const { tau, sdBetween } = estimateRunToRun(onLog as [RunOnLogScale, ...RunOnLogScale[]]);
  const withTau = onLog.map((r) => intervalWithTau(r, tau));
  const containing = withTau.filter(([lower, upper]) => lower <= 0 && 0 <= upper).length;
  const average = (values: number[]) => mean(values as NonEmpty<number>);
  return {
    condition,
    segmentDesign,
    runs: usable.length,
    meanPairs: average(usable.map((r) => r.pairs)),
    withinHalfWidthPp: average(within),
    perMeasuredMinutePp: average(
      within.map((h, i) => h * Math.sqrt((usable[i] as DesignRun).measuredS / 60)),
    ),
    perWallMinutePp: average(within.map((h, i) => h * Math.sqrt((usable[i] as DesignRun).wallS / 60))),
    meanWallS: average(usable.map((r) => r.wallS)),
    // ln ratios near 0 are percentages / 100 to within a few percent of themselves.
    sdEstimatePp: 100 * sdBetween,
    tau,
    withTauHalfWidthPp: average(withTau.map(halfWidth)),
    withTauContaining: containing,
    withTauCi95: wilsonInterval(containing, usable.length),
  };
}

/** Figures per condition and design, then per design over every condition ('all'), in first-seen order. */
export function compareDesigns(runs: readonly DesignRun[]): DesignFigures[] {
  const conditions = [...new Set(runs.map((r) => r.condition))];
  const designs = [...new Set(runs.map((r) => r.segmentDesign))];
  const cells = [
    ...conditions.flatMap((c) => designs.map((d) => [c, d] as const)),
    ...(conditions.length > 1 ? designs.map((d) => ['all', d] as const) : []),
  ];
  return cells.flatMap(([condition, design]) => {
    const group = runs.filter(
      (r) => r.segmentDesign === design && (condition === 'all' || r.condition === condition),
    );
    const result = figures(condition, design, group);
    return result ? [result] : [];
  });
}

const pct = (f: number) => `${(100 * f).toFixed(0)}%`;

/** One line per cell, e.g. "quiet · aligned: 10 runs (15 pairs, 81 s): ±1.02 pp within run, ±1.9 pp a measured minute…". */
export function formatDesignComparison(cells: readonly DesignFigures[]): string {
  return cells
    .map(
      (c) =>
        `${c.condition} · ${c.segmentDesign}: ${c.runs} runs (${c.meanPairs.toFixed(1)} pairs, ${c.meanWallS.toFixed(0)} s each): within-run half-width ${c.withinHalfWidthPp.toFixed(2)} pp, ${c.perMeasuredMinutePp.toFixed(2)} pp per measured minute, ${c.perWallMinutePp.toFixed(2)} pp per wall minute; estimates sd ${c.sdEstimatePp.toFixed(2)} pp, τ ${c.tau.toFixed(4)}; with τ ${c.withTauContaining}/${c.runs} contain 0 (95% [${pct(c.withTauCi95[0])}, ${pct(c.withTauCi95[1])}]), half-width ${c.withTauHalfWidthPp.toFixed(2)} pp`,
    )
    .join('\n');
}
