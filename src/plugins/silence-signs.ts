import type { AddedRateField } from '../config/added-traffic.ts';

/** A rate of the added load (traffic.added, docs/traffic.md) that produces a class of events sysbench never sends. */
export type AddedRate = AddedRateField;

/**
 * What a plugin says, and how its settings read, when it logged nothing of the measured traffic: where the
 * measurement looks for why (src/bench/silence.ts), in the plugin's own names. Absent: only the configuration and
 * the logging variable are read.
 */
export interface SilenceSigns {
  /** LIKE pattern of its status variables, e.g. 'Server\\_audit%'; null when it has none. */
  statusLike: string | null;
  /** The status variable that reads OFF while it writes nothing (server_audit's Server_audit_active). */
  activeStatus?: string;
  /** The status variable holding its last error, empty when none (Server_audit_last_error). */
  lastErrorStatus?: string;
  /** The status variable naming the file it writes now (Server_audit_current_log). */
  currentLogStatus?: string;
  /** The counter of records it failed to write (Server_audit_writes_failed). */
  writesFailedStatus?: string;
  /** The system variable naming its log file, for the line when the status names none. */
  fileVariable?: string;
  /** Text of an error-log line that says it cannot write its file (McAfee: 'audit file handler disabled'). */
  errorLogMarks: string[];
  /**
   * Its event filter: the variable listing the classes it logs (empty: every class), and the classes only added
   * load produces under sysbench's persistent connections, with the rates that add them.
   */
  eventFilter?: { variable: string; onlyFromAdded: Record<string, AddedRate[]> };
}
