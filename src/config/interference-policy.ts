// What a measurement taken under interference does to the verdict (auditbench.config.ts's `interference`).
export const interferencePolicies = ['warn', 'fail', 'retry'] as const;
export type InterferencePolicy = (typeof interferencePolicies)[number];

/** Under `fail`, a flagged measurement fails its test with this message; null when it stands. */
export function interferenceFailure(
  interference: { flagged: boolean; reason: string } | undefined,
  policy: InterferencePolicy,
): string | null {
  if (!interference?.flagged || policy !== 'fail') return null;
  return `${interference.reason}; interference: 'fail' (auditbench.config.ts) rejects such a verdict: rerun when the machine is quiet, or use 'retry'`;
}
