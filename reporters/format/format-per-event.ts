// Per-event costs, the production projection and the sysbench cross-check, as the reports' section. Pure: results in,
// text out.

import { operationTitles } from '../../src/results/per-event-operations.ts';
import type { OperationCost, PerEvent, Projection } from '../../src/results/per-event-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { diskUseSpec } from '../charts/disk-use-spec.ts';
import { fixed } from './format-numbers.ts';
import type { SectionContent } from './section.ts';

type Measured = PluginResult & { perEvent: PerEvent };

/** The results that carry per-event costs. */
export const perEventResults = (results: readonly PluginResult[]): Measured[] =>
  results.filter((r): r is Measured => r.perEvent !== undefined);

const interval = (ci: readonly [number, number] | null, digits = 1): string =>
  ci ? ` [${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : '';

/** '+6.0', or '-24.7' for a (noise) estimate below 0: never '+-'. */
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${fixed(value)}`;

const where = (r: PluginResult) => `${r.title} on ${r.server.flavor} ${r.server.version}`;

/** One row per operation kind: what it costs per operation and per audited event. */
export function operationRow(o: OperationCost): string[] {
  return [
    operationTitles[o.kind],
    fixed(o.offUs, 0),
    `${signed(o.addedUs)}${interval(o.addedCi95Us)}`,
    fixed(o.eventsPerOp, 2),
    o.addedUsPerEvent === null ? '–' : `${signed(o.addedUsPerEvent)}${interval(o.addedCi95UsPerEvent)}`,
    fixed(o.logBytesPerEvent, 0),
  ];
}

const operationHead = [
  'operation',
  'off µs/op',
  'added µs/op [95% CI]',
  'events/op',
  'added µs/event [95% CI]',
  'log bytes/event',
];

/** The disk line: bounded by rotation, or unbounded with the days until the free space is full. */
export function diskLine(p: Projection): string {
  if (p.disk.kind === 'bounded') {
    const retained = p.disk.retainedDays === null ? 'forever' : `${fixed(p.disk.retainedDays)} days`;
    const fits = p.disk.fitsInFreeDisk ? '' : ` — more than the ${fixed(p.freeDiskGb, 0)} GB free`;
    return `disk: at most ${fixed(p.disk.boundGb)} GB with its rotation, holding ${retained} of audit${fits}`;
  }
  const full = p.disk.daysUntilFull === null ? 'never' : `in ${fixed(p.disk.daysUntilFull)} days`;
  return `disk: unbounded (no rotation); ${fixed(p.freeDiskGb, 0)} GB free fills ${full}`;
}

/** Projection and cross-check sentences for one result. */
export function projectionLines(r: Measured): string[] {
  const { projection: p, traffic, crossCheck } = r.perEvent;
  const lines = [
    `${where(r)}, traffic '${traffic.name}' (peak ×${traffic.peakFactor}): CPU ${fixed(p.cpuCoresAvg, 3)} cores average, ${fixed(p.cpuCoresPeak, 3)}${interval(p.cpuCoresPeakCi95, 3)} at peak; log ${fixed(p.logGbPerDay, 2)} GB/day; ${diskLine(p)}`,
  ];
  if (p.unmeasured.length > 0) lines.push(`not measured, counted as 0: ${p.unmeasured.join(', ')}`);
  if (crossCheck) {
    lines.push(
      `cross-check (${crossCheck.mix}): per-event costs predict ${fixed(crossCheck.predictedLossPct)}%${interval(crossCheck.predictedCi95)} throughput loss, sysbench measured ${fixed(crossCheck.measuredLossPct)}%${interval(crossCheck.measuredCi95)}; ratio ${fixed(crossCheck.ratio, 2)}`,
    );
  } else if (crossCheck === null) {
    lines.push('cross-check: not possible (a select or update cost, or the machine’s cores, is missing)');
  } else {
    lines.push('cross-check: no sysbench measurement of this plugin in this run');
  }
  return lines;
}

/**
 * Per measured result, a table of operations with its projection under it, and the disk-use chart; no table when
 * nothing was measured.
 */
export function perEventContent(results: readonly PluginResult[]): SectionContent {
  return {
    about: [
      'Each operation runs alone through mysql2 under tinybench, plugin off and on in interleaved pairs; the added latency is the paired trimmed log-ratio (as the gate computes it) applied to the plugin-off latency. The projection multiplies it by the traffic profile: CPU at the peak rate, disk at the average.',
    ],
    charts: [
      {
        name: 'disk-use',
        spec: diskUseSpec(results),
        empty: 'No projection: no plugin wrote log bytes that could be measured.',
      },
    ],
    tables: perEventResults(results).map((r) => ({
      caption: `${where(r)}: ${r.perEvent.pairs} off/on pairs of ${r.perEvent.segmentMs} ms per operation`,
      head: operationHead.map((text) => ({ text })),
      rows: r.perEvent.operations.map(operationRow),
      notes: projectionLines(r),
    })),
  };
}
