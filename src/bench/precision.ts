import type { Calibration, Measurement } from '../results/schema.ts';
import { mean, sampleSd } from '../stats/descriptive.ts';
import { isNonEmpty } from '../stats/tps-pair.ts';
import { decideVerdict } from '../stats/verdict.ts';

export interface PrecisionReport {
  overheadRuns: number;
  meanOverheadPct: number | null;
  sdOverheadPct: number | null;
  halfWidthsPct: number[];
  maxHalfWidthPct: number | null;
  meanPairs: number | null;
  meanVerdictS: number | null;
  aaRuns: number;
  /** A/A runs whose interval would fail a gate at aaGatePct: each is a false alarm. */
  aaFailures: number;
  aaGatePct: number;
  aaHalfWidthsPct: number[];
}

const halfWidth = (ci: [number, number] | null): number => (ci ? (ci[1] - ci[0]) / 2 : Number.NaN);
const meanOrNull = (values: number[]) => (isNonEmpty(values) ? mean(values) : null);

/** The figures bench:precision prints: how repeatable the estimate is and how often A/A raises a false alarm. */
export function precisionReport(
  measurements: Measurement[],
  calibrations: Calibration[],
  aaGatePct = 5,
): PrecisionReport {
  const estimates = measurements.map((m) => m.overheadPct);
  const halfWidthsPct = measurements.map((m) => halfWidth(m.overheadCi95));
  const aaFailures = calibrations.filter(
    (c) =>
      decideVerdict({ estimatePct: c.biasPct, ci95: c.biasCi95, limitPct: aaGatePct }).verdict === 'fail',
  ).length;
  return {
    overheadRuns: measurements.length,
    meanOverheadPct: meanOrNull(estimates),
    sdOverheadPct: isNonEmpty(estimates) ? sampleSd(estimates) : null,
    halfWidthsPct,
    maxHalfWidthPct: isNonEmpty(halfWidthsPct) ? Math.max(...halfWidthsPct) : null,
    meanPairs: meanOrNull(measurements.map((m) => m.pairs)),
    meanVerdictS: meanOrNull(measurements.map((m) => m.wallS)),
    aaRuns: calibrations.length,
    aaFailures,
    aaGatePct,
    aaHalfWidthsPct: calibrations.map((c) => halfWidth(c.biasCi95)),
  };
}

const f = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));

export function formatPrecisionReport(r: PrecisionReport): string {
  return [
    `overhead estimates: ${r.overheadRuns} runs, mean ${f(r.meanOverheadPct)}%, stddev ${f(r.sdOverheadPct)} pp`,
    `95% interval half-widths: ${r.halfWidthsPct.map((h) => f(h)).join(', ')} pp (max ${f(r.maxHalfWidthPct)})`,
    `pairs per verdict: ${f(r.meanPairs, 1)}; wall time per verdict (warm-up included): ${f(r.meanVerdictS, 0)} s`,
    `A/A: ${r.aaFailures} of ${r.aaRuns} runs fail a ${r.aaGatePct}% gate; half-widths ${r.aaHalfWidthsPct.map((h) => f(h)).join(', ')} pp`,
  ].join('\n');
}
