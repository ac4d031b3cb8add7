import { crossCheck } from './cross-check.ts';
import type { PluginResult } from './schema.ts';

/**
 * A result with both a per-event measurement and a sysbench measurement gets their cross-check; others pass through.
 * The server used one core when the gate pinned it, else every core of the measuring machine.
 */
export function withCrossCheck(result: PluginResult): PluginResult {
  const { perEvent, measurement } = result;
  if (!perEvent || !measurement) return result;
  const serverCores = measurement.pinning !== null ? 1 : (result.machine?.cores ?? null);
  const check =
    serverCores === null
      ? null
      : crossCheck(perEvent.operations, {
          baselineTps: measurement.baselineTps,
          overheadPct: measurement.overheadPct,
          overheadCi95: measurement.overheadCi95,
          serverCores,
        });
  return { ...result, perEvent: { ...perEvent, crossCheck: check } };
}
