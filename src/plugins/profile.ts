import type { ServerFlavor, ServerInfo } from '../servers/started-server.ts';
import type { Claims, RotationPlan } from './completeness-claims.ts';
import type { FaultSupport } from './fault-support.ts';
import type { LogFormat } from './logs/index.ts';
import type { SilenceSigns } from './silence-signs.ts';
import type { Step } from './steps.ts';

/** What a plugin is expected to do; the suite checks the server's behaviour against each entry. */
export interface PluginExpectations {
  logsSuccessfulQueries: boolean;
  /** Error codes that appear in the log for failed statements (e.g. [1064, 1146]); [] when failures are not logged. */
  failedQueryCodes: number[];
  masksPasswords: boolean;
  /** Whether CREATE USER is logged at all under this configuration (default true); false expects 'not logged'. */
  logsPasswordStatements?: boolean;
  /**
   * Characters of a statement a record keeps, counted as written (a quote or backslash escaped with a backslash
   * counts two); absent: the whole statement. A check whose marker lies past the cut records 'not applicable'.
   */
  statementTextLimit?: number;
  /**
   * Why the checks cannot read what this configuration logs (e.g. it logs to syslog); absent: they read the log
   * file. Every check that reads the log then records 'not applicable' with this reason.
   */
  logUnreadable?: string;
  /**
   * Where the configuration sends records to syslog instead of a file (server_audit_output_type=syslog): the ident,
   * facility, priority and info string each record carries. A run with it gets a receiver of its own, or is refused
   * before set-up (src/servers/syslog-receiver.ts): its records never reach the host's journal.
   */
  syslog?: SyslogExpectation;
  /** The log file, relative to the datadir, when the configuration moves it from `log.file`. */
  logFile?: string;
  /**
   * Why the log may lack any one record the configuration selects (SQL_ERROR_LOG's rate N logs one error in N;
   * server_audit rotating every few records drops them before a check reads them); absent: it keeps every one. A
   * check that looks for one particular record then records 'not applicable' with this reason.
   */
  recordsIncomplete?: string;
  /** Rotates its log by size into `<file>.1` … `<file>.N`. */
  rotates: boolean;
  afterRestart: {
    installed: boolean;
    loggingOn: boolean;
    /** Every SET GLOBAL value is lost and back at its default. */
    variablesReset: boolean;
  };
  uninstall: {
    /** Warning codes the server answers UNINSTALL with (MariaDB: 1620 "will be uninstalled on shutdown"). */
    warningCodes: number[];
    /** The plugin is still listed after UNINSTALL and is only gone after a restart. */
    needsRestart: boolean;
    /**
     * The option in force that decides `needsRestart` when it is not the plugin's own answer, and the fact's source
     * (e.g. "log_bin=mariadb-bin: observed on MariaDB 10.11.19 …"): a mismatch names it. Absent: no option in force
     * is known to change the answer.
     */
    deferredBy?: string;
    /** Statements are still logged after UNINSTALL answered (until the restart). */
    stillLogs: boolean;
    /** The server dies during the procedure: a finding, recorded with the error-log tail; the server is restarted. */
    crashes?: boolean;
  };
}

/** What a record sent to syslog carries, as the plugin's settings name it (e.g. ident `mysql-server_auditing`). */
export interface SyslogExpectation {
  ident: string;
  /** The facility's name as the setting spells it, e.g. LOG_USER, LOG_LOCAL0. */
  facility: string;
  /** The priority's name, e.g. LOG_INFO. */
  priority: string;
  /** Text the plugin puts before each record; '' for none. */
  info: string;
}

/** What a run's expectations depend on of its traffic: the accounts it logs in as (ResolvedRun.traffic.accounts). */
export interface AuditedTraffic {
  accounts: { application: string; checks: string };
}

/** Which accounts a plugin's user filter lets through under one run's settings. */
export interface UserFilter {
  /** The settings that decide, as `name=value` (joined with ', '), for the one line a refusal prints. */
  setting: string;
  /** The variable to edit so an account is audited, and whether it lists the audited users or the others. */
  variable: string;
  kind: 'include' | 'exclude';
  audits(user: string): boolean;
}

/**
 * What the completeness check needs to know of one plugin beyond the rest of its profile. A profile carries it
 * (`profile.completeness`); src/completeness reads it.
 */
export interface CompletenessSetup {
  /** The kinds the plugin, configured as the profile says (its measureSettings), claims to log. */
  claims(profile: PluginProfile): Claims;
  rotation: RotationPlan;
  /** What a crash can lose with this plugin, and why (its buffering), reported with the crash figures. */
  durabilityNote: string;
}

export interface RotationSettings {
  /** Statements that set rotate size S and N rotations. */
  configure(sizeBytes: number, rotations: number): Step[];
  /** Smallest size the plugin accepts. */
  minSizeBytes: number;
  /** Steps that put the measuring rotation back after the rotation check (e.g. startup-only options). */
  restore?: Step[];
}

/** Where a plugin writes its records, and how auditbench reads them. */
export interface LogFileOutput {
  /** Current log file, relative to the datadir. Rotated files are `<file>.<n>`. */
  file: string;
  format: LogFormat;
  /** The format in a reader's words, for the reports (e.g. 'CSV text, a line per event'); default the format id. */
  formatName?: string;
  rotation: RotationSettings | null;
  /** Why the fault phase cannot move this output onto its filesystem (src/faults), when it cannot. */
  notMovable?: string;
}

/**
 * A plugin that writes nothing and only counts the events it is sent in status variables (MySQL's NULL_AUDIT). The
 * checks that read a log read these counters instead, or record that they do not apply; `file`, `format` and
 * `rotation` are null so code that only lists files needs no branch.
 */
export interface StatusCounterOutput {
  file: null;
  format: null;
  rotation: null;
  /** LIKE pattern of the plugin's status variables, e.g. 'Audit\\_null\\_%'. */
  countersLike: string;
  /** The counter that grows with every event the plugin is sent. */
  eventCounter: string;
}

export type PluginOutput = LogFileOutput | StatusCounterOutput;

/** A matrix cell that comes to something other than the default ('works' on its flavors, 'skipped' elsewhere). */
export interface CellExpectation {
  server: (info: ServerInfo) => boolean;
  outcome: 'incompatible' | 'unavailable' | 'crash-loop';
  why: string;
}

/** Where the plugin stands in the matrix of servers. */
export interface MatrixPlacement {
  /** Crossed with every server: it can be tried live with what Debian ships. */
  crossed: boolean;
  expectations: CellExpectation[];
  /**
   * The plugin's library, lent to container images that lack it (a path on the machine running the suites), so the
   * matrix can try it on servers it was not built for: MariaDB's server_audit.so on MySQL is the seed's case.
   */
  lend?: { file: string; into: (image: string) => boolean };
}

/**
 * The hand-run evaluation this project automates measured two plugins once each (reporters/format/seed-reference.ts
 * holds its setup and baseline); a plugin it measured carries its figures, printed beside this run's as reference.
 */
export interface SeedPluginReference {
  /** The plugin and version the evaluation ran: the seed column's heading. */
  label: string;
  /** Its column's place in the seed's own table (1 = first). */
  column: number;
  transactions: number;
  tps: number;
  /** Log written during the 5-minute run, as the evaluation gave it (a total, in its own rounding). */
  logBytesTotal: number;
  logTotalAsGiven: string;
  logFormat: string;
  rotation: string;
  logsFailedStatements: string;
  uninstallNeedsRestart: string;
}

/** A plugin is data: everything the suite needs to install, drive, read and judge it. */
/**
 * The throughput loss every built-in profile allows, in percent of the server's throughput without the plugin. A team
 * that signs for less sets its own per run (`maxOverheadPct`) or for every run (`maxOverheadPct` at the configuration's top level);
 * README.md, "The default limit", says why 30.
 */
export const DEFAULT_MAX_OVERHEAD_PCT = 30;

export interface PluginProfile {
  /** Name as INSTALL PLUGIN and information_schema.PLUGINS know it; for a built-in, the name results carry. */
  name: string;
  title: string;
  /** The library in the plugin directory; null for a server built-in (the general query log) that needs none. */
  soname: string | null;
  /** What a user puts in AUDITBENCH_PLUGIN_DIR for it, where no server ships it: said when it is missing. */
  supply?: string;
  flavors: ServerFlavor[];
  /** Empty for a built-in: there is nothing to install or uninstall. */
  install: Step[];
  uninstall: Step[];
  enable: Step[];
  /**
   * The enable under given settings (same form as expectationsFor's) when the configuration changes it, e.g. the
   * general log's names its own output and file only where the configuration names none; absent: `enable`.
   */
  enableFor?: (settings: Readonly<Record<string, string>>) => Step[];
  disable: Step[];
  /** Settings (SET GLOBAL) applied before measuring, e.g. what to log; reported with the figures. */
  measureSettings: Record<string, string>;
  /** LIKE pattern for the plugin's system variables, e.g. 'server\\_audit%'. */
  variablesLike: string;
  /** The system variable that says whether logging is on; null when logging is on exactly while it is installed. */
  loggingVariable: string | null;
  /** Values of loggingVariable that mean logging is on; default ['ON']. */
  loggingOnValues?: string[];
  /**
   * The plugin's variables that name its log file: a DBA's value is moved into the run's data directory (file name
   * kept), so a production path like /var/log/mysql/audit.log is never written (src/config/outside-options.ts).
   */
  logPathOptions?: readonly string[];
  log: PluginOutput;
  /**
   * Where the records are read when the configuration sends them to syslog (`expected.syslog`): the file of the run's
   * own receiver, in a format of that framing; absent: the plugin never logs to syslog.
   */
  syslogLog?: LogFileOutput;
  /**
   * Where the records are read under given settings (same form as expectationsFor's) when the configuration sends
   * them to another output than `log` (the general log to its table, log_output=TABLE); absent or null: `log`.
   */
  logFor?: (settings: Readonly<Record<string, string>>) => LogFileOutput | null;
  /** Overhead limit for the gate, in percent of baseline TPS. */
  maxOverheadPct: number;
  expected: PluginExpectations;
  /**
   * What the plugin logs under given settings (names normalised to lowercase with _, values as plain text, e.g.
   * { server_audit_events: 'CONNECT' }): the run's expectations start from this, then the run's own overrides.
   */
  expectationsFor?: (
    settings: Readonly<Record<string, string>>,
    traffic: AuditedTraffic,
  ) => Partial<PluginExpectations>;
  /**
   * The plugin's user filter under given settings (same form as expectationsFor's), or null when it logs every
   * account: decides whether the measured traffic is audited at all, before anything is measured.
   */
  userFilter?: (settings: Readonly<Record<string, string>>) => UserFilter | null;
  /** What differs on one flavor (e.g. MySQL rewrites passwords in the general log, MariaDB does not). */
  expectedOn?: Partial<Record<ServerFlavor, Partial<PluginExpectations>>>;
  /** What the completeness check claims and how it turns the log over; absent: completeness is not checked. */
  completeness?: CompletenessSetup;
  /** Absent: not in the matrix, and every server of its flavors is expected to work. */
  matrix?: MatrixPlacement;
  /** The seed evaluation's figures, for a plugin it measured. */
  seed?: SeedPluginReference;
  /** Where to look for why it logged nothing of the traffic (src/bench/silence.ts); absent: the settings only. */
  silence?: SilenceSigns;
  /** How the fault phase moves, reopens and judges its log (src/faults); absent: the phase skips it. */
  faults?: FaultSupport;
  /** The plugin rewrites the server's code at run time (McAfee's hot patching): valgrind must re-check all code. */
  patchesServerCode?: boolean;
}

/** The expectations that hold on this flavor of server. */
export const expectationsOn = (profile: PluginProfile, flavor: ServerFlavor): PluginExpectations => ({
  ...profile.expected,
  ...profile.expectedOn?.[flavor],
});

/** Built-in profiles by their one id (src/profiles/index.ts holds the project's; a test may hand in its own). */
export type ProfileRegistry = Readonly<Record<string, PluginProfile>>;
