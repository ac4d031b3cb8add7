import type { RunLatency } from './latency-lines.ts';

/** One per-second (or per report-interval) line of a sysbench run. */
export interface SysbenchInterval {
  /** Seconds since the run started, at the end of the interval. */
  atS: number;
  threads: number;
  tps: number;
  qps: number;
  latencyP95Ms: number;
  errorsPerS: number;
  reconnectsPerS: number;
  /**
   * Open loop (`--rate`) only: arrivals waiting for a free thread, and threads busy, when the interval ended, from
   * sysbench's extra `[ 1s ] queue length: 0, concurrency: 4` line.
   */
  queueLength?: number;
  concurrency?: number;
}

/** What one sysbench run reported. */
export interface SysbenchResult {
  transactions: number;
  tps: number;
  queries: number;
  qps: number;
  /** Statement counts by kind: the seed report tabulates them, and audit-log checks compare event counts to them. */
  reads: number;
  writes: number;
  other: number;
  readsPerS: number;
  writesPerS: number;
  otherPerS: number;
  latencyAvgMs: number;
  latencyP95Ms: number;
  /** Worst single event: a synchronous audit-log flush shows up here before it moves the average. */
  latencyMaxMs: number;
  errors: number;
  reconnects: number;
  durationS: number;
  intervals: SysbenchInterval[];
  /** Per-slot transaction latencies from latency-wrapper.lua, when the run asked for them (RunOptions.latency). */
  latency?: RunLatency;
}
