export type { WorkloadName } from '../config/lists.ts';

/**
 * How the plugin-off and plugin-on arms are interleaved.
 * - toggle: the plugin is switched on and off inside one sysbench run every segmentS seconds (ABBA order),
 *   dropping the second that holds each switch; one run gives `pairs` pairs. Needs a plugin that switches live.
 *   With `aligned`, each switch is timed to land just before one of sysbench's report boundaries (its clock read
 *   off the arrival of its per-second lines), so no second is dropped: what shorter segments need (issue 25).
 * - runs: separate sysbench runs of durationS per arm, ABBA order, `pairs` pairs per block.
 */
export type Design = { kind: 'toggle'; segmentS: number; aligned?: boolean } | { kind: 'runs' };

/**
 * What sysbench runs: the same whatever the measurement around it (a warm-up chunk, a block's arm, a toggled run, an
 * added load). The runner gets a job and a duration; how long and how often it runs is the MeasurePlan's. The
 * server options are here because they decide what the statements cost (they are applied before the tables load),
 * and the ignored-error share because it decides whether a run's output is valid at all.
 */
export interface SysbenchJob {
  /** The preset it came from, named in errors (`Workload 'smoke': threads must be …`). */
  name: string;
  /** sysbench test name, e.g. oltp_read_write. */
  test: string;
  tables: number;
  tableSize: number;
  threads: number;
  /** Ignored SQL errors (deadlocks, lock waits) a valid run may have, in percent of its transactions. */
  maxIgnoredErrorPct: number;
  /**
   * The DBA's own sysbench Lua script (absolute path) run instead of `test` (traffic.script): its `prepare` builds
   * its schema, its options keep their defaults (auditbench passes no --tables/--table-size to it).
   */
  script?: string;
  /** false runs statements as plain text (--db-ps-mode=disable, traffic.preparedStatements); default true. */
  preparedStatements?: boolean;
  /**
   * Open loop: sysbench's `--rate`, transactions per second over all threads (arrivals it queues when every thread
   * is busy). Absent: closed loop, each thread sending its next transaction as soon as the last one ends.
   */
  rate?: number;
  /** Server options applied for this workload (reported with the figures they produced). */
  serverOptions: Record<string, string>;
}

/**
 * How a job is measured: the arms' design, how long each run lasts, when to stop, how wide an interval may be and
 * what it carries, and where the processes run. Nothing here reaches sysbench's command line except through the
 * duration the measurement hands the runner; planFor (src/bench/measure-plan.ts) is the one place that makes one.
 */
export interface MeasurePlan {
  design: Design;
  /** Length of one measured run (runs design). The toggle design runs 2·pairs·segmentS per block. */
  durationS: number;
  /**
   * The warm-up that precedes each measurement and is discarded: chunks of sysbench run until two in a row agree
   * (src/stats/adaptive.ts, warmedUp), not before minWarmupS and never past warmupS. After loading the tables,
   * prepareMeasurement restarts the server, which writes out the load's dirty pages.
   */
  warmupS: number;
  minWarmupS: number;
  /** Pairs per block: measured before the first verdict, and added per block until it is decisive. */
  pairs: number;
  /** Adaptive sampling stops at this many pairs… */
  maxPairs: number;
  /** …or when another block would pass this much measuring time. */
  budgetS: number;
  /**
   * With a limit, blocks are added until the verdict is decisive and the interval's wider side is at most this
   * many pp (or the budget is spent); null stops as soon as the verdict is decisive.
   */
  targetHalfWidthPct: number | null;
  /**
   * Run-to-run spread of the overhead estimate on the log scale (τ, src/stats/paired-overhead.ts) that every interval
   * on this workload carries, as `npm run bench:coverage` measured it on null controls; 0 where not measured.
   */
  runToRunSdLog: number;
  /**
   * `auditbench gate`'s own budget and target for the contrast of base and head in one run (suites/gate.suite.ts),
   * in place of budgetS and targetHalfWidthPct: a PR gate measures only what a branch changed, usually one run, so
   * it can spend longer on it than `auditbench bench` spends on each of its runs.
   */
  gate: { budgetS: number; targetHalfWidthPct: number | null };
  /** Pin the server to CPU 0 and sysbench to CPU 1 (local target, 2+ cores): less noise, reported with the figures. */
  pinCpus: boolean;
}

/**
 * A named preset (src/workload/workloads.ts): the defaults of a job and of its plan in one value. What is measured
 * is planFor's job and plan, built from it; a preset is never reshaped on the way to sysbench.
 */
export type Workload = SysbenchJob & MeasurePlan;
