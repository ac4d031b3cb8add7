// From measured per-event costs and a traffic profile to what the plugin takes in production: CPU at the average
// and peak rate, log volume per day, and disk, bounded by the plugin's rotation or growing until the disk is full.
// Pure; the assumptions are docs/measurement.md's "Cost per audited event, and in production".

import type { ProjectionTraffic } from '../config/projection-traffic.ts';
import type { OperationKind } from '../results/per-event-operations.ts';
import type { OperationCost, Projection, RotationInForce } from '../results/per-event-record.ts';

const SECONDS_PER_DAY = 86_400;
const BYTES_PER_GB = 1e9;

/** Operations per second of each measured kind that the traffic profile implies. */
export function ratesByKind(traffic: ProjectionTraffic): Record<OperationKind, number> {
  return {
    'point-select': traffic.statementsPerS.select,
    update: traffic.statementsPerS.write,
    'failing-statement': traffic.statementsPerS.failing,
    'connect-disconnect': traffic.connectionsPerS,
    'failed-login': traffic.failedLoginsPerS,
  };
}

/** A plugin cannot make a server faster: a negative estimate is noise around 0 and counts as 0. */
const atLeastZero = (value: number): number => Math.max(0, value);

/** Days until `gb` is written at `gbPerDay`; null when nothing is written (never). */
const daysFor = (gb: number, gbPerDay: number): number | null => (gbPerDay > 0 ? gb / gbPerDay : null);

/**
 * CPU, log volume and disk for `traffic`. `rotation` null (or 0 rotations) means the log never rotates: it grows
 * until the free space is gone.
 */
export function projectCost(
  operations: readonly OperationCost[],
  traffic: ProjectionTraffic,
  rotation: RotationInForce | null,
): Projection {
  const rates = ratesByKind(traffic);
  let cpuCoresAvg = 0;
  let cpuLow = 0;
  let cpuHigh = 0;
  let bytesPerS = 0;
  let anyInterval = false;
  const unmeasured: string[] = [];
  for (const [kind, perS] of Object.entries(rates) as [OperationKind, number][]) {
    if (perS === 0) continue;
    const cost = operations.find((o) => o.kind === kind);
    if (!cost) {
      unmeasured.push(kind);
      continue;
    }
    cpuCoresAvg += (perS * atLeastZero(cost.addedUs)) / 1e6;
    const [low, high] = cost.addedCi95Us ?? [cost.addedUs, cost.addedUs];
    anyInterval ||= cost.addedCi95Us !== null;
    cpuLow += (perS * atLeastZero(low)) / 1e6;
    cpuHigh += (perS * atLeastZero(high)) / 1e6;
    if (cost.logBytesPerOp === null) unmeasured.push(`${kind} log bytes`);
    else bytesPerS += perS * cost.logBytesPerOp;
  }
  const logGbPerDay = (bytesPerS * SECONDS_PER_DAY) / BYTES_PER_GB;
  const peak = traffic.peakFactor;
  return {
    cpuCoresAvg,
    cpuCoresPeak: cpuCoresAvg * peak,
    // Bounds added kind by kind, as if every kind's error ran the same way: wider than the true 95%, never narrower.
    cpuCoresPeakCi95: anyInterval ? [cpuLow * peak, cpuHigh * peak] : null,
    logGbPerDay,
    disk: diskUse(logGbPerDay, traffic.freeDiskGb, rotation),
    freeDiskGb: traffic.freeDiskGb,
    unmeasured,
  };
}

function diskUse(
  logGbPerDay: number,
  freeDiskGb: number,
  rotation: RotationInForce | null,
): Projection['disk'] {
  if (rotation === null || rotation.rotations <= 0) {
    return { kind: 'unbounded', daysUntilFull: daysFor(freeDiskGb, logGbPerDay) };
  }
  const boundGb = ((rotation.rotations + 1) * rotation.sizeBytes) / BYTES_PER_GB;
  return {
    kind: 'bounded',
    boundGb,
    retainedDays: daysFor(boundGb, logGbPerDay),
    fitsInFreeDisk: boundGb <= freeDiskGb,
  };
}

/** Disk the log occupies after `days` at the projected rate: the rotation's bound caps it. */
export function diskUseGbAfter(projection: Projection, days: number): number {
  const written = projection.logGbPerDay * days;
  return projection.disk.kind === 'bounded' ? Math.min(written, projection.disk.boundGb) : written;
}
