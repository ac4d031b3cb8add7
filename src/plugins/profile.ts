import type { ServerFlavor } from '../servers/started-server.ts';
import type { LogFormat } from './logs/index.ts';
import type { Step } from './steps.ts';

/** What a plugin is expected to do; the suite checks the server's behaviour against each entry. */
export interface PluginExpectations {
  logsSuccessfulQueries: boolean;
  /** Error codes that appear in the log for failed statements (e.g. [1064, 1146]); [] when failures are not logged. */
  failedQueryCodes: number[];
  masksPasswords: boolean;
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
    /** Statements are still logged after UNINSTALL answered (until the restart). */
    stillLogs: boolean;
  };
}

export interface RotationSettings {
  /** Statements that set rotate size S and N rotations. */
  configure(sizeBytes: number, rotations: number): Step[];
  /** Smallest size the plugin accepts. */
  minSizeBytes: number;
  /** Steps that put the measuring rotation back after the rotation check (e.g. startup-only options). */
  restore?: Step[];
}

/** A plugin is data: everything the suite needs to install, drive, read and judge it. */
export interface PluginProfile {
  /** Name as INSTALL PLUGIN and information_schema.PLUGINS know it. */
  name: string;
  title: string;
  soname: string;
  flavors: ServerFlavor[];
  install: Step[];
  uninstall: Step[];
  enable: Step[];
  disable: Step[];
  /** Settings (SET GLOBAL) applied before measuring, e.g. what to log; reported with the figures. */
  measureSettings: Record<string, string>;
  /** LIKE pattern for the plugin's system variables, e.g. 'server\\_audit%'. */
  variablesLike: string;
  /** The system variable that says whether logging is on. */
  loggingVariable: string;
  /** Values of loggingVariable that mean logging is on; default ['ON']. */
  loggingOnValues?: string[];
  log: {
    /** Current log file, relative to the datadir. Rotated files are `<file>.<n>`. */
    file: string;
    format: LogFormat;
    rotation: RotationSettings | null;
  };
  /** Overhead limit for the gate, in percent of baseline TPS. */
  maxOverheadPct: number;
  expected: PluginExpectations;
}
