import type { ServerFlavor, TargetName } from '../config/lists.ts';
import type { CountedRecord } from './counted-record.ts';
import type { FaultRecord } from './fault-record.ts';
import type { LifecycleCheck } from './lifecycle-check.ts';
import type { PerEvent } from './per-event-record.ts';
import type {
  Calibration,
  CompletenessPhase,
  Machine,
  MatrixCellRecord,
  Measurement,
  TrafficRecord,
} from './schema.ts';

/** Identifies one plugin × server × workload; the reporter groups records by it. */
export interface ResultKey {
  /** The configuration run this result belongs to (auditbench.config.ts); results group by it. */
  runId: string;
  /** The built-in profile the run starts from (ResolvedRun.profileId); null for a profile of the user's own. */
  profileId: string | null;
  /** The profile's name as the server knows the plugin (e.g. 'SERVER_AUDIT'): for display, not for look-ups. */
  plugin: string;
  title: string;
  server: {
    flavor: ServerFlavor;
    version: string;
    target: TargetName;
  };
  workload: string;
  limitPct: number;
  /** The run's settings: SET GLOBAL values (SQL literals) and my.cnf startup options, as applied. */
  settings?: { global: Record<string, string>; startup: Record<string, string>; optionFile: string | null };
  /** Hash of the profile's effective configuration (src/runs/config-hash.ts), for history comparisons. */
  configHash?: string;
  /** The measuring machine, so a report merged from shards on other machines still says where it ran. */
  machine?: Machine;
  /** The run's measured traffic (accounts, added rates, script, prepared statements), as resolved. */
  traffic?: TrafficRecord;
}

/** What a suite test attaches to task.meta.auditbench: one lifecycle check, or the overhead measurement. */
export type ResultRecord =
  | (ResultKey & { kind: 'lifecycle'; check: LifecycleCheck })
  | (ResultKey & { kind: 'measurement'; measurement: Measurement })
  | (ResultKey & { kind: 'calibration'; calibration: Calibration })
  | (ResultKey & { kind: 'completeness'; completeness: CompletenessPhase })
  | (ResultKey & { kind: 'per-event'; perEvent: PerEvent })
  | (ResultKey & { kind: 'counted'; counted: CountedRecord })
  | (ResultKey & { kind: 'faults'; fault: FaultRecord });

declare module 'vitest' {
  interface TaskMeta {
    auditbench?: ResultRecord;
    auditbenchMatrix?: MatrixCellRecord;
  }
}
