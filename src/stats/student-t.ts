import jStat from 'jstat';

/** Quantile of Student's t distribution, e.g. tQuantile(0.975, 4) ≈ 2.776. */
export function tQuantile(probability: number, degreesOfFreedom: number): number {
  if (!(probability > 0 && probability < 1)) {
    throw new Error(`probability must be strictly between 0 and 1, got ${probability}`);
  }
  if (!(degreesOfFreedom > 0) || !Number.isFinite(degreesOfFreedom)) {
    throw new Error(`degreesOfFreedom must be a positive finite number, got ${degreesOfFreedom}`);
  }
  return jStat.studentt.inv(probability, degreesOfFreedom);
}
