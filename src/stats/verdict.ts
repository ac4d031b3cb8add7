import type { Ci95Pct } from './paired-overhead.ts';

export interface VerdictInput {
  estimatePct: number;
  /** 95% interval of the overhead in percent, or null when there was only one pair. */
  ci95: Ci95Pct | null;
  /** Largest acceptable overhead in percent. */
  limitPct: number;
  /** From A/A calibration: the overhead a gate of this size cannot tell from zero. Only explains, never decides. */
  noiseFloorPct?: number;
}

export type Verdict =
  | { verdict: 'pass'; reason: string }
  | { verdict: 'fail'; reason: string }
  | { verdict: 'inconclusive'; reason: string };

/**
 * pass: the whole interval is at or under the limit; fail: the whole interval is above it;
 * inconclusive: it straddles the limit (or there is no interval). The interval already carries the
 * noise of this very run, so the calibrated noise floor only sharpens the reason; letting it move the
 * decision would count the same noise twice.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const { estimatePct, ci95, limitPct, noiseFloorPct } = validateVerdictInput(input);
  const limit = `the ${formatLimitPct(limitPct)} limit`;
  if (ci95 === null) {
    return {
      verdict: 'inconclusive',
      reason: `overhead ${formatPct(estimatePct)} from a single pair has no interval, so it cannot be judged against ${limit}; measure at least 2 pairs`,
    };
  }
  const [lowerPct, upperPct] = ci95;
  const measured = `overhead ${formatPct(estimatePct)} (95% CI ${formatRange(lowerPct, upperPct)})`;
  if (upperPct <= limitPct) {
    // Only an interval that reaches 0 is "no measurable overhead": a tight interval clear of 0 is a real cost,
    // even when an earlier, noisier A/A run set a wider floor.
    const reachesZero = lowerPct <= 0 && upperPct >= 0;
    const noise = noiseFloorPct !== undefined && reachesZero && withinNoise(estimatePct, noiseFloorPct);
    const suffix = noise ? `; it is within the ±${formatPct(noiseFloorPct)} noise floor` : '';
    return { verdict: 'pass', reason: `${measured} is within ${limit}${suffix}` };
  }
  if (lowerPct > limitPct) {
    return { verdict: 'fail', reason: `${measured} is above ${limit}` };
  }
  return { verdict: 'inconclusive', reason: `${measured} straddles ${limit}; ${inconclusiveAdvice(input)}` };
}

/** True when an overhead estimate is no larger, either way, than the calibrated noise floor. */
export function withinNoise(estimatePct: number, noiseFloorPct: number): boolean {
  if (!Number.isFinite(noiseFloorPct) || noiseFloorPct < 0) {
    throw new Error(`noiseFloorPct must be a finite number of at least 0, got ${noiseFloorPct}`);
  }
  return Math.abs(estimatePct) <= noiseFloorPct;
}

function inconclusiveAdvice({ limitPct, noiseFloorPct }: VerdictInput): string {
  if (noiseFloorPct !== undefined && limitPct > 0 && limitPct < noiseFloorPct) {
    return `the limit is inside the ±${formatPct(noiseFloorPct)} noise floor, so deciding takes many more pairs than calibrated, a quieter machine or a higher limit`;
  }
  return 'add pairs to narrow the interval';
}

function validateVerdictInput(input: VerdictInput): VerdictInput {
  const { estimatePct, ci95, limitPct } = input;
  if (!Number.isFinite(limitPct) || limitPct < 0 || limitPct >= 100) {
    throw new Error(`limitPct must be at least 0 and below 100, got ${limitPct}`);
  }
  if (!Number.isFinite(estimatePct)) {
    throw new Error(`estimatePct must be a finite number, got ${estimatePct}`);
  }
  if (ci95 !== null && !(ci95[0] <= ci95[1])) {
    throw new Error(
      `ci95 must be [lowerPct, upperPct] with lowerPct ≤ upperPct, got [${ci95[0]}, ${ci95[1]}]`,
    );
  }
  if (input.noiseFloorPct !== undefined) withinNoise(0, input.noiseFloorPct);
  return input;
}

/** 41.23 → '41.2%'. */
export function formatPct(valuePct: number): string {
  return `${valuePct.toFixed(1)}%`;
}

/** Limits are round numbers people typed: 30 → '30%', 2.5 → '2.5%'. */
function formatLimitPct(limitPct: number): string {
  return `${Number(limitPct.toFixed(2))}%`;
}

/** '38.9–43.4%', or '-1.2% to 3.4%' when a dash next to a minus sign would read as a subtraction. */
function formatRange(lowerPct: number, upperPct: number): string {
  if (lowerPct < 0) return `${formatPct(lowerPct)} to ${formatPct(upperPct)}`;
  return `${lowerPct.toFixed(1)}–${formatPct(upperPct)}`;
}
