// Per-operation cost from interleaved off/on latency pairs, with the gate's own statistics: each pair becomes a
// throughput pair (1/latency), pairedOverhead gives the trimmed log-ratio and its t interval, and the added
// microseconds are that ratio applied to the median plugin-off latency. The ratio is scale-free, so a pair measured
// while this VM ran slow still says "on takes 3% longer"; the median off latency's own spread is left out of the
// interval (it moves the µs figure by its relative error, far below the ratio's).

import type { OperationKind } from '../results/per-event-operations.ts';
import type { OperationCost } from '../results/per-event-record.ts';
import { median } from '../stats/descriptive.ts';
import { pairedOverhead } from '../stats/paired-overhead.ts';
import { isNonEmpty, type NonEmpty } from '../stats/tps-pair.ts';

/** Median latency of one operation in one plugin-off and the adjacent plugin-on tinybench segment, µs. */
export interface LatencyPair {
  offUs: number;
  onUs: number;
}

/** What one operation wrote to the log with the plugin on; null fields when the log could not be read. */
export interface LogCost {
  eventsPerOp: number | null;
  logBytesPerOp: number | null;
}

/** Latency added by an overhead of `pct` (share of throughput lost) on a base latency: base·(1/(1 − p) − 1). */
export const addedUsFromOverheadPct = (baseUs: number, pct: number): number =>
  baseUs * (1 / (1 - pct / 100) - 1);

const perEvent = (value: number, events: number | null): number | null =>
  events === null || events <= 0 ? null : value / events;

/** The added µs per operation and per audited event, with 95% intervals, and log bytes per event. */
export function operationCost(
  kind: OperationKind,
  pairs: readonly LatencyPair[],
  log: LogCost,
): OperationCost {
  if (!isNonEmpty(pairs))
    throw new Error(`${kind}: no off/on latency pairs were measured; measure at least 2`);
  pairs.forEach((p, i) => {
    for (const arm of ['offUs', 'onUs'] as const) {
      if (!(Number.isFinite(p[arm]) && p[arm] > 0)) {
        throw new Error(`${kind}: pairs[${i}].${arm} must be a positive latency in µs, got ${p[arm]}`);
      }
    }
  });
  const estimate = pairedOverhead(pairs.map((p) => ({ offTps: 1e6 / p.offUs, onTps: 1e6 / p.onUs })));
  const offUs = median(pairs.map((p) => p.offUs) as NonEmpty<number>);
  const onUs = median(pairs.map((p) => p.onUs) as NonEmpty<number>);
  const addedUs = addedUsFromOverheadPct(offUs, estimate.estimatePct);
  const addedCi95Us =
    estimate.ci95 === null
      ? null
      : ([
          addedUsFromOverheadPct(offUs, estimate.ci95[0]),
          addedUsFromOverheadPct(offUs, estimate.ci95[1]),
        ] as [number, number]);
  const events = log.eventsPerOp;
  const addedUsPerEvent = perEvent(addedUs, events);
  return {
    kind,
    offUs,
    onUs,
    addedUs,
    addedCi95Us,
    overheadPct: estimate.estimatePct,
    overheadCi95: estimate.ci95,
    pairs: estimate.pairCount,
    trimmedEachSide: estimate.trimmedEachSide,
    eventsPerOp: events,
    logBytesPerOp: log.logBytesPerOp,
    addedUsPerEvent,
    addedCi95UsPerEvent:
      addedUsPerEvent === null || addedCi95Us === null
        ? null
        : [addedCi95Us[0] / (events as number), addedCi95Us[1] / (events as number)],
    logBytesPerEvent: log.logBytesPerOp === null ? null : perEvent(log.logBytesPerOp, events),
  };
}
