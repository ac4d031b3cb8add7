import type { ComparisonDesign } from '../bench/subject.ts';
import type { Workload } from '../workload/workload.ts';

/**
 * The workload a comparison of base and head is measured with: the gate's own budget and precision target
 * (Workload.gate) in place of the bench's, in the comparison's design (designWorkload).
 */
export function gateWorkload(workload: Workload, design: ComparisonDesign): Workload {
  return designWorkload({ ...workload, ...workload.gate }, design);
}

/**
 * In the restarts and reconnect designs each arm is its own sysbench run (after a restart, or a reconnect that a
 * session-scope SET GLOBAL needs), so a block has at most 3 pairs (6 runs) to stay near a toggled block's length; the
 * adaptive loop adds blocks while the budget allows. Reconnect's arms are plain statements, so the separate runs are
 * asked for here (effectiveWorkload would otherwise toggle them inside one run).
 */
export function designWorkload(workload: Workload, design: ComparisonDesign): Workload {
  if (design === 'toggle') return workload;
  const pairs = Math.min(workload.pairs, 3);
  return design === 'reconnect' ? { ...workload, design: { kind: 'runs' }, pairs } : { ...workload, pairs };
}
