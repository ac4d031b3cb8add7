import type { MeasuredTrafficInput } from '../config/measured-traffic.ts';
import type { HistoryPolicy, InterferencePolicy, RunPolicy } from '../config/policy.ts';
import type { TrafficInput } from '../config/projection-traffic.ts';
import type { Settings } from '../config/settings.ts';
import type { PluginExpectations, PluginProfile } from '../plugins/profile.ts';
import type { ProfileName } from '../profiles/index.ts';

/** A DBA's option file, read when the configuration loads; the path is relative to the configuration file. */
export interface OptionFileReference {
  readonly kind: 'option-file';
  readonly path: string;
}

/** `cnf: fromCnf('ops/mysql/audit.cnf')`: that file's options, of every group the server reads, become the run's. */
export const fromCnf = (path: string): OptionFileReference => ({ kind: 'option-file', path });

/** One thing to measure: a plugin with its settings. */
export interface RunConfig {
  /** Names the run in results, history and `AUDITBENCH_RUNS`; lowercase letters, digits, . _ -. Default: the plugin's name. */
  id?: string;
  /** What the reports call it; default: the profile's title plus the settings. */
  title?: string;
  /** A built-in profile by name ('server_audit', 'general_log', …) or a profile of your own. */
  plugin: ProfileName | PluginProfile;
  /** Applied with SET GLOBAL after install and before measuring; auditbench quotes the values. */
  settings?: Settings;
  /** Written to the server's my.cnf (as loose- options) before the plugin is installed. */
  startupOptions?: Settings;
  /** Startup options read from your own option file. */
  cnf?: OptionFileReference;
  /** What this configuration is expected to do, where it differs from what auditbench derives from the settings. */
  expected?: Partial<PluginExpectations>;
  /** Overhead limit in percent of baseline TPS; default the configuration's `maxOverheadPct`, else the profile's. */
  maxOverheadPct?: number;
  /**
   * The most the p99 transaction latency may rise with the plugin on, in percent (docs/concurrency.md, "Latency beside throughput"):
   * the run fails when the p99 change's 95% interval lies wholly above it. Default: no latency limit.
   */
  maxP99IncreasePct?: number;
  /** This run's traffic, over the configuration's `traffic` (accounts, added rates, script, prepared statements). */
  traffic?: MeasuredTrafficInput;
  /**
   * sysbench threads: one count, or a list (a sweep: each point its own measurement and interval, on one server and
   * one table load). Default: the configuration's `threads`, else the workload's count (docs/concurrency.md).
   */
  threads?: number | number[];
  /**
   * `pinned`: server on CPU 0, sysbench on CPU 1 (local, 2+ CPUs); `all`: unpinned. Default: the configuration's
   * `cores`, else the workload's.
   */
  cores?: 'pinned' | 'all';
  /**
   * An open-loop point after the others: sysbench sends a fixed `--rate` of 70% of the baseline's throughput at the
   * run's most threads, so queueing shows in the latency (docs/concurrency.md). Default: on for a sweep, else off.
   */
  openLoop?: boolean;
  /**
   * An interval that straddles the limit: `fail` (default, the safe side) or `pass`. On the quick workload, which
   * checks that the parts work, it passes whatever this says; a verdict wholly above the limit fails everywhere.
   */
  inconclusive?: RunPolicy['inconclusive'];
  /** A measurement in which the plugin logged none of the traffic: `fail` (default) or `pass`. */
  idle?: RunPolicy['idle'];
  /**
   * A result measured while other processes used the CPUs: `warn` (default) marks it, `fail` fails the run, `retry`
   * measures a disturbed block again once the machine is quiet.
   */
  interference?: InterferencePolicy;
}

/** What applies to every run that does not set its own. */
type RunDefaults = Pick<
  RunConfig,
  'maxOverheadPct' | 'threads' | 'cores' | 'inconclusive' | 'idle' | 'interference'
>;

/**
 * The runs, and the policy: limits, concurrency and what a doubtful result does (for every run, where a run sets
 * none of its own), and how the history judges a change. The environment says where and on what machine.
 */
export interface AuditbenchConfig extends RunDefaults, Partial<HistoryPolicy> {
  runs: RunConfig[];
  /**
   * Your traffic: the production rates the per-event projection uses (default: an illustrative OLTP profile; give
   * any of them and the rest keep the default's values), and what every run's measurement sends (accounts, added
   * rates, script), which a run's own `traffic` overrides.
   */
  traffic?: Partial<TrafficInput> & MeasuredTrafficInput;
}

/** Types the configuration file; it is validated when auditbench loads it. */
export const defineConfig = (config: AuditbenchConfig): AuditbenchConfig => config;

export type {
  HistoryPolicy,
  MeasuredTrafficInput,
  PluginExpectations,
  PluginProfile,
  RunDefaults,
  Settings,
  TrafficInput,
};
