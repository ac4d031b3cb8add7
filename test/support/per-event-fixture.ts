import { projectCost } from '../../src/projection/project.ts';
import type { OperationCost, PerEvent } from '../../src/results/per-event-record.ts';
import { defaultTraffic } from '../../src/runs/default-traffic.ts';

const operation = (
  kind: OperationCost['kind'],
  offUs: number,
  addedUs: number,
  events: number,
  bytes: number,
) => ({
  kind,
  offUs,
  onUs: offUs + addedUs,
  addedUs,
  addedCi95Us: [addedUs * 0.8, addedUs * 1.2] as [number, number],
  overheadPct: (100 * addedUs) / (offUs + addedUs),
  overheadCi95: null,
  pairs: 10,
  trimmedEachSide: 2,
  eventsPerOp: events,
  logBytesPerOp: bytes * events,
  addedUsPerEvent: addedUs / events,
  addedCi95UsPerEvent: [(addedUs * 0.8) / events, (addedUs * 1.2) / events] as [number, number],
  logBytesPerEvent: bytes,
});

const operations: OperationCost[] = [
  operation('point-select', 80, 6, 2, 120),
  operation('update', 150, 9, 2, 130),
  operation('failing-statement', 90, 5, 1, 140),
  operation('connect-disconnect', 900, 20, 2, 100),
  operation('failed-login', 1_100, 15, 1, 110),
];

/** A per-event measurement shaped like the suite's, for report tests; `rotation` null makes the log unbounded. */
export function perEventFixture(rotation: PerEvent['rotation']): PerEvent {
  return {
    operations,
    segmentMs: 250,
    pairs: 10,
    wallS: 58,
    pinning: 'server on CPU 0, client on CPU 1',
    rotation,
    traffic: defaultTraffic,
    projection: projectCost(operations, defaultTraffic, rotation),
  };
}
