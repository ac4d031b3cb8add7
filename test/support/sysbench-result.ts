import type { SysbenchResult } from '../../src/workload/sysbench-result.ts';

/** A sysbench result with only its throughput and length filled in, for runners scripted in unit tests. */
export const sysbenchResult = (tps: number, durationS: number): SysbenchResult => ({
  transactions: tps * durationS,
  tps,
  queries: 0,
  qps: 0,
  reads: 0,
  writes: 0,
  other: 0,
  readsPerS: 0,
  writesPerS: 0,
  otherPerS: 0,
  latencyAvgMs: 1,
  latencyP95Ms: 1,
  latencyMaxMs: 1,
  errors: 0,
  reconnects: 0,
  durationS,
  intervals: [],
});
