import type { LifecycleCheck } from './lifecycle-check.ts';
import type { Calibration, Machine, MatrixCellRecord, Measurement } from './schema.ts';

/** Identifies one plugin × server × workload; the reporter groups records by it. */
export interface ResultKey {
  plugin: string;
  title: string;
  server: {
    flavor: 'mariadb' | 'mysql' | 'percona';
    version: string;
    target: 'local' | 'container' | 'external';
  };
  workload: string;
  limitPct: number;
  /** Hash of the profile's effective configuration (src/history/config-hash.ts), for history comparisons. */
  configHash?: string;
  /** The measuring machine, so a report merged from shards on other machines still says where it ran. */
  machine?: Machine;
}

/** What a suite test attaches to task.meta.auditbench: one lifecycle check, or the overhead measurement. */
export type ResultRecord =
  | (ResultKey & { kind: 'lifecycle'; check: LifecycleCheck })
  | (ResultKey & { kind: 'measurement'; measurement: Measurement })
  | (ResultKey & { kind: 'calibration'; calibration: Calibration });

declare module 'vitest' {
  interface TaskMeta {
    auditbench?: ResultRecord;
    auditbenchMatrix?: MatrixCellRecord;
  }
}
