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
}

/** What one sysbench run reported. */
export interface SysbenchResult {
  transactions: number;
  tps: number;
  queries: number;
  qps: number;
  readsPerS: number;
  writesPerS: number;
  otherPerS: number;
  latencyAvgMs: number;
  latencyP95Ms: number;
  errors: number;
  reconnects: number;
  durationS: number;
  intervals: SysbenchInterval[];
}
