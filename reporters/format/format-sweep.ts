import { sweepSpec } from '../charts/sweep-spec.ts';
import { estimateText, fixed } from './format-numbers.ts';
import type { SectionContent } from './section.ts';
import type { SweepGroup, SweepPoint } from './sweep-groups.ts';

const HEAD = [
  'threads',
  'cores',
  'baseline TPS',
  'overhead [95% CI]',
  'p95 change [95% CI]',
  'p99 change [95% CI]',
  'verdict',
  'result id',
];

const cells = (p: SweepPoint): string[] => [
  p.openLoopRate === null ? String(p.threads) : `${p.threads}, open loop ${p.openLoopRate}/s`,
  p.cores,
  fixed(p.baselineTps),
  estimateText(p.overheadPct, p.ci95, '%'),
  estimateText(p.p95?.changePct ?? null, p.p95?.ci95 ?? null, '%'),
  estimateText(p.p99?.changePct ?? null, p.p99?.ci95 ?? null, '%'),
  p.verdict,
  p.runId,
];

/** Each sweep's table, one row per point, and overhead against threads with intervals. */
export function sweepContent(groups: readonly SweepGroup[]): SectionContent {
  return {
    about: [
      'Each point is a measurement of its own (its own pairs and interval) on the same server and tables; a point other than the workload’s own threads and cores has a result id of its own, and the history compares it only with the same point.',
      'An open-loop point sends a fixed rate (70% of the baseline’s throughput at its threads): its throughput stays at the rate while the server keeps up, and what the plugin adds shows as queueing in the latency.',
    ],
    charts: [
      { name: 'sweep', spec: sweepSpec(groups), empty: 'No point of a sweep has an overhead estimate yet.' },
    ],
    tables: groups.map((g) => ({
      caption: `${g.run} on ${g.server}, ${g.workload}`,
      head: HEAD.map((text) => ({ text })),
      rows: g.points.map(cells),
    })),
  };
}
