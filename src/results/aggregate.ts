import { withCrossCheck } from './cross-checked.ts';
import type { PluginResult } from './schema.ts';
import type { ResultKey, ResultRecord } from './task-meta.ts';

const keyOf = (k: ResultKey) =>
  [k.runId, k.server.flavor, k.server.version, k.server.target, k.workload].join('|');

/** Groups the per-test records of a run into one result per plugin × server × workload, in first-seen order. */
export function aggregateResults(records: ResultRecord[]): PluginResult[] {
  const byKey = new Map<string, PluginResult>();
  for (const record of records) {
    const id = keyOf(record);
    let result = byKey.get(id);
    if (!result) {
      result = {
        plugin: record.plugin,
        title: record.title,
        server: { ...record.server },
        workload: record.workload,
        baselineTps: null,
        pluginTps: null,
        overheadPct: null,
        limitPct: record.limitPct,
        verdict: 'error',
        overheadCi95: null,
        pairs: 0,
        noiseFloorPct: null,
        minDetectablePct: null,
        logBytesPerTxn: null,
        lifecycle: [],
        measurement: null,
        calibration: null,
        runId: record.runId,
        profileId: record.profileId,
        ...(record.settings !== undefined && { settings: record.settings }),
        ...(record.configHash !== undefined && { configHash: record.configHash }),
        ...(record.machine !== undefined && { machine: record.machine }),
        ...(record.traffic !== undefined && { traffic: record.traffic }),
      };
      byKey.set(id, result);
    }
    if (record.kind === 'lifecycle') {
      result.lifecycle.push(record.check);
    } else if (record.kind === 'completeness') {
      result.completeness = [...(result.completeness ?? []), record.completeness];
    } else if (record.kind === 'faults') {
      result.faults = [...(result.faults ?? []), record.fault];
    } else if (record.kind === 'per-event') {
      result.perEvent = record.perEvent;
    } else if (record.kind === 'counted') {
      result.counted = record.counted;
    } else if (record.kind === 'calibration') {
      result.calibration = record.calibration;
      result.noiseFloorPct = record.calibration.noiseFloorPct;
      result.minDetectablePct = record.calibration.minDetectablePct;
    } else {
      const m = record.measurement;
      Object.assign(result, {
        baselineTps: m.baselineTps,
        pluginTps: m.pluginTps,
        overheadPct: m.overheadPct,
        verdict: m.verdict,
        overheadCi95: m.overheadCi95,
        pairs: m.pairs,
        logBytesPerTxn: m.logBytesPerTxn,
        measurement: m,
      });
    }
  }
  return [...byKey.values()].map(withCrossCheck);
}

/** The observed value of one lifecycle check, or undefined when it did not run. */
export function observedOf(result: PluginResult, check: string): unknown {
  return result.lifecycle.find((c) => c.check === check)?.observed;
}
