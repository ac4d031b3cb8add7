import type { Workload } from '../workload/workload.ts';
import type { Comparison } from './plan-file.ts';

/**
 * The workload a comparison of base and head is measured with: the gate's own budget and precision target
 * (Workload.gate) in place of the bench's. In the restarts design each arm is its own run after a restart, so a block
 * has at most 3 pairs (6 runs) to stay near a toggled block's length; the adaptive loop adds blocks while the budget
 * allows.
 */
export function gateWorkload(workload: Workload, design: Comparison['design']): Workload {
  const gated = { ...workload, ...workload.gate };
  return design === 'restarts' ? { ...gated, pairs: Math.min(gated.pairs, 3) } : gated;
}
