// AUDITBENCH_INTERFERENCE: what a measurement taken under interference does to the verdict.
import { z } from 'zod';

export const interferencePolicies = ['warn', 'fail', 'retry'] as const;
export type InterferencePolicy = (typeof interferencePolicies)[number];

/** The env field, in the shape src/config/env.ts's `fields` use: schema plus the advice shown on a bad value. */
export const interferencePolicyField = {
  schema: z.enum(interferencePolicies),
  expects: `must be one of ${interferencePolicies.join(', ')} (warn marks the result, fail fails it, retry re-measures a disturbed block once the machine is quiet)`,
};

/** Reads the policy from a raw value (undefined means the default, warn); a bad value names itself and the choices. */
export function parseInterferencePolicy(raw: string | undefined): InterferencePolicy {
  if (raw === undefined) return 'warn';
  const parsed = interferencePolicyField.schema.safeParse(raw.trim());
  if (!parsed.success)
    throw new Error(`AUDITBENCH_INTERFERENCE ${interferencePolicyField.expects}; got '${raw}'`);
  return parsed.data;
}

/** Under `fail`, a flagged measurement fails its test with this message; null when it stands. */
export function interferenceFailure(
  interference: { flagged: boolean; reason: string } | undefined,
  policy: InterferencePolicy,
): string | null {
  if (!interference?.flagged || policy !== 'fail') return null;
  return `${interference.reason}; AUDITBENCH_INTERFERENCE=fail rejects such a verdict: rerun when the machine is quiet, or use retry`;
}
