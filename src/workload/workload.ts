export type WorkloadName = 'smoke' | 'standard' | 'seed';

/** What sysbench runs, and how many A/B pairs a measurement takes. */
export interface Workload {
  name: string;
  /** sysbench test name, e.g. oltp_read_write. */
  test: string;
  tables: number;
  tableSize: number;
  threads: number;
  /** Length of one measured run. */
  durationS: number;
  /** Length of the warm-up run that precedes the measured ones and is discarded. */
  warmupS: number;
  /** Plugin-off / plugin-on pairs measured. */
  pairs: number;
  /** Server options applied for this workload (reported with the figures they produced). */
  serverOptions: Record<string, string>;
}
