// Per-event costs, the production projection and the sysbench cross-check, for the terminal, summary.md and the HTML
// report. Pure: results in, text out.

import Table from 'cli-table3';
import { mdText } from '../../src/markdown/markdown.ts';
import { operationTitles } from '../../src/results/per-event-operations.ts';
import type { OperationCost, PerEvent, Projection } from '../../src/results/per-event-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import type { ReportSection } from './format-html.ts';
import { fixed } from './format-numbers.ts';

type Measured = PluginResult & { perEvent: PerEvent };

const measured = (results: readonly PluginResult[]): Measured[] =>
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

/** The terminal section: a table of operations per plugin, then its projection; '' when nothing was measured. */
export function formatPerEventText(results: readonly PluginResult[]): string {
  return measured(results)
    .map((r) => {
      const table = new Table({ head: operationHead, style: { head: [], border: [] } });
      for (const o of r.perEvent.operations) table.push(operationRow(o));
      const head = `${where(r)}: ${r.perEvent.pairs} off/on pairs of ${r.perEvent.segmentMs} ms per operation`;
      return [head, table.toString(), ...projectionLines(r).map((l) => `- ${l}`)].join('\n');
    })
    .join('\n\n');
}

/** The summary.md section (with its heading), or [] when nothing was measured. */
export function formatPerEventMarkdown(results: readonly PluginResult[]): string[] {
  const rows = measured(results);
  if (rows.length === 0) return [];
  const head = ['plugin', ...operationHead];
  return [
    '### Cost per audited event',
    '',
    `| ${head.join(' | ')} |`,
    `|${' --- |'.repeat(head.length)}`,
    ...rows.flatMap((r) =>
      r.perEvent.operations.map((o) => `| ${[r.title, ...operationRow(o)].map(mdText).join(' | ')} |`),
    ),
    '',
    ...rows.flatMap((r) => projectionLines(r).map((l) => `- ${mdText(l)}`)),
    '',
  ];
}

/**
 * The HTML report's section: a table of operations per plugin with its projection under it, and the disk-use chart
 * (`diskSvg`, rendered by the caller); null when nothing was measured.
 */
export function perEventSection(
  results: readonly PluginResult[],
  diskSvg: string | null,
): ReportSection | null {
  const rows = measured(results);
  if (rows.length === 0) return null;
  return {
    heading: 'Cost per audited event, and in production',
    lines: [
      'Each operation runs alone through mysql2 under tinybench, plugin off and on in interleaved pairs; the added latency is the paired trimmed log-ratio (as the gate computes it) applied to the plugin-off latency. The projection multiplies it by the traffic profile: CPU at the peak rate, disk at the average.',
    ],
    figures: [
      {
        name: 'disk-use',
        svg: diskSvg,
        empty: 'No projection: no plugin wrote log bytes that could be measured.',
      },
    ],
    tables: rows.map((r) => ({
      caption: `${where(r)}: ${r.perEvent.pairs} off/on pairs of ${r.perEvent.segmentMs} ms per operation`,
      head: operationHead.map((text) => ({ text })),
      rows: r.perEvent.operations.map(operationRow),
      notes: projectionLines(r),
    })),
  };
}
