import type { ProjectionTraffic } from '../config/projection-traffic.ts';

/**
 * The traffic projected when the DBA gives none: a mid-sized OLTP primary. Rates are round, illustrative figures
 * (not measured anywhere): replace them with the server's own counters (Com_select, Com_update + Com_insert +
 * Com_delete, Connections, Aborted_connects over a day) via `traffic` in the configuration file.
 */
export const defaultTraffic: ProjectionTraffic = {
  name: 'default OLTP (illustrative)',
  statementsPerS: { select: 2_000, write: 300, failing: 2 },
  connectionsPerS: 20,
  failedLoginsPerS: 0.1,
  peakFactor: 3,
  freeDiskGb: 100,
};
