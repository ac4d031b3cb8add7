import type { ArmSteps } from '../bench/subject.ts';
import type { AddedKind } from '../config/added-traffic.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { Step } from '../plugins/steps.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import type { CallgrindDump } from './callgrind-dump.ts';
import type { CountedArm } from './counted-stats.ts';
import type { IdAlignment } from './id-widths.ts';

// What a counted A/B is: its plan, its subject, its server and its readings. The sequence that runs one (a server
// started under callgrind, the discarded arm, the ABBA arms) is src/orchestrate/counted-sequence.ts.

/** What a counted A/B runs: the same fixed transactions per arm, `pairs` ABBA pairs after one discarded arm. */
export interface CountedPlan {
  /** Transactions per arm, from one seed: every arm sends the same statements. */
  events: number;
  seed: number;
  pairs: number;
}

export const defaultCountedPlan: CountedPlan = { events: 150, seed: 42, pairs: 3 };

/** The discarded first arm's length, in arms: it warms the server and learns which threads serve sysbench. */
export const WARMUP_ARMS = 3;

export interface CountedSubject {
  label: string;
  /** Run once on the counted server before the arms: the plugin's install and its run's settings. */
  setup: Step[];
  /** What switches between the arms (plugin off/on, base/head settings). */
  arms: ArmSteps;
  /** The profile whose log is read for bytes and events, or null (A/A, a plugin without a file). */
  log: PluginProfile | null;
  /** The plugin patches the server's code at run time (valgrind must re-check it). */
  selfModifyingCode?: boolean;
  /**
   * The configuration's thread_handling: the thread pool's connections are counted from its own entry points. Read at
   * every (re)start of the counted server, so `restartUnder` can change it.
   */
  threadHandling?: string | null;
}

/**
 * traffic.added as a counted arm sends it: after the arm's transactions, a fixed number of each kind in proportion to
 * the wall clock's transactions (`addedPerArm`), from the same accounts as the wall-clock load.
 */
export interface CountedAdded {
  rates: [AddedKind, number][];
  /** The wall-clock run's throughput without the subject (its base arm), which turns rates into counts. */
  wallClockTps: number;
  /** The account whose logins fail (wrong password). */
  failingUser: string;
}

/** A started counted server: where callgrind writes its dumps, and how sysbench logs in to it. */
export interface CountedServer {
  server: StartedServer;
  dumpDir: string;
  application: ConnectionOptions;
  /** The threads it ran once set up, before any client but the harness connected: never counted as serving one. */
  background: ReadonlySet<number>;
}

/** One arm as counted, with the callgrind dump it wrote. */
export interface CountedArmReading extends CountedArm {
  dump: CallgrindDump;
  /**
   * Connection threads whose writes the arm could not count: ones that exited before the second reading, and ones
   * the server created in the arm that the reading never saw.
   */
  lostThreads: number;
  /** Seconds between the arm's two /proc readings. */
  spanS?: number;
}

export interface CountedRunOutcome {
  /** The discarded first arm, then the measured arms in order. */
  warmup: CountedArmReading;
  arms: CountedArmReading[];
  server: StartedServer;
  wallS: number;
  /** The query ids around the measured arms; null where the server does not show them (MySQL). */
  queryIds: IdAlignment | null;
  /** The connection ids around the measured arms; null where the server does not show them. */
  connectionIds: IdAlignment | null;
}

/**
 * The job a counted server runs: its transactions (test or script, prepared or not) on one thread, on at most
 * smoke's tables (4 × 10,000 rows), closed loop. What a plugin adds per transaction does not grow with the table (it
 * logs the statement, not the rows), and a counted server per run loads its own tables: standard's 800,000 rows would
 * add half a minute to each run. The identity names the tables, so only like is compared with like.
 */
export function countedJob(job: SysbenchJob): SysbenchJob {
  const { rate: _open, ...closed } = job;
  return {
    ...closed,
    threads: 1,
    tables: Math.min(job.tables, 4),
    tableSize: Math.min(job.tableSize, 10_000),
  };
}

/** What the arms on a counted server count: the job, the subject's two arms, the plan and the added traffic. */
export interface CountedArms {
  job: SysbenchJob;
  subject: CountedSubject;
  plan: CountedPlan;
  added?: CountedAdded | null;
  progress: (message: string) => void;
}
