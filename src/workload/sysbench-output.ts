import type { SysbenchInterval, SysbenchResult } from './sysbench-result.ts';

const NUM = String.raw`(\d+(?:\.\d+)?)`;

// e.g. [ 1s ] thds: 4 tps: 812.93 qps: 16289.54 (r/w/o: 11409.29/3251.70/1628.55) lat (ms,95%): 7.98 err/s: 0.00 reconn/s: 0.00
const INTERVAL_LINE = new RegExp(
  String.raw`^\[\s*${NUM}s\s*\]\s+thds:\s+(\d+)\s+tps:\s+${NUM}\s+qps:\s+${NUM}\s+` +
    String.raw`\(r/w/o:\s+${NUM}/${NUM}/${NUM}\)\s+lat\s+\(ms,(\d+)%\):\s+${NUM}\s+` +
    String.raw`err/s:\s+${NUM}\s+reconn/s:\s+${NUM}\s*$`,
);

// With --rate, sysbench 1.0.20 also prints, each second: [ 1s ] queue length: 0, concurrency: 4
const QUEUE_LINE = new RegExp(
  String.raw`^\[\s*${NUM}s\s*\]\s+queue length:\s+(\d+),\s+concurrency:\s+(\d+)\s*$`,
);

const SECTION_HEADERS = ['SQL statistics:', 'General statistics:', 'Latency (ms):'] as const;
type SectionHeader = (typeof SECTION_HEADERS)[number];

/**
 * Parses the text sysbench 1.0.20 prints for an oltp_* `run` with `--report-interval=1`.
 * Throws when the text is not a complete report (crashed, killed or truncated run).
 */
export function parseSysbenchOutput(text: string): SysbenchResult {
  const sections = splitSections(text);
  const intervals = parseIntervals(text);
  const sql = sections['SQL statistics:'];
  const general = sections['General statistics:'];
  const latency = sections['Latency (ms):'];

  const reads = count(sql, 'read');
  const writes = count(sql, 'write');
  const other = count(sql, 'other');
  const [transactions, tps] = countWithRate(sql, 'transactions');
  const [queries, qps] = countWithRate(sql, 'queries');
  const durationS = number(general, 'total time', `${NUM}s`);
  if (durationS <= 0) throw new Error(`sysbench output reports a total time of ${durationS}s: nothing ran`);

  return {
    transactions,
    // sysbench's own rates, so our figures match what a DBA sees on its console.
    tps,
    queries,
    qps,
    reads,
    writes,
    other,
    readsPerS: reads / durationS,
    writesPerS: writes / durationS,
    otherPerS: other / durationS,
    latencyAvgMs: number(latency, 'avg', NUM),
    latencyP95Ms: number(latency, '95th percentile', NUM),
    latencyMaxMs: number(latency, 'max', NUM),
    errors: count(sql, 'ignored errors'),
    reconnects: count(sql, 'reconnects'),
    durationS,
    intervals,
  };
}

function parseIntervals(text: string): SysbenchInterval[] {
  const intervals: SysbenchInterval[] = [];
  const queues = new Map<number, { queueLength: number; concurrency: number }>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('[')) continue;
    const queue = QUEUE_LINE.exec(line);
    if (queue) queues.set(Number(queue[1]), { queueLength: Number(queue[2]), concurrency: Number(queue[3]) });
    else intervals.push(parseIntervalLine(line));
  }
  return intervals.map((interval) => ({ ...interval, ...queues.get(interval.atS) }));
}

function parseIntervalLine(line: string): SysbenchInterval {
  const m = INTERVAL_LINE.exec(line);
  if (!m) throw new Error(`sysbench per-second line is not in the oltp_* format (cut short?): ${line}`);
  const [, atS, threads, tps, qps, , , , percentile, latency, errorsPerS, reconnectsPerS] = m;
  if (percentile !== '95') {
    throw new Error(`sysbench reported the ${percentile}th latency percentile; run it with --percentile=95`);
  }
  return {
    atS: Number(atS),
    threads: Number(threads),
    tps: Number(tps),
    qps: Number(qps),
    latencyP95Ms: Number(latency),
    errorsPerS: Number(errorsPerS),
    reconnectsPerS: Number(reconnectsPerS),
  };
}

/** Cuts the final report into its blocks; a missing block means the run never finished. */
function splitSections(text: string): Record<SectionHeader, string> {
  const starts = SECTION_HEADERS.map((header) => {
    const at = text.indexOf(`\n${header}`);
    if (at === -1) throw new Error(missingBlockMessage(header, text));
    return at;
  });
  const sections = {} as Record<SectionHeader, string>;
  SECTION_HEADERS.forEach((header, i) => {
    sections[header] = text.slice(starts[i], starts[i + 1] ?? text.length);
  });
  return sections;
}

function missingBlockMessage(header: SectionHeader, text: string): string {
  // Loose match: the last line of a killed run may itself be cut short.
  const lastAtS = [...text.matchAll(/^\[\s*(\d+)s\s*\]/gm)].at(-1)?.[1];
  const progress = lastAtS
    ? `the last per-second line was at ${lastAtS}s`
    : 'there are no per-second lines either (was --report-interval=1 passed?)';
  return `sysbench output has no '${header}' block, so the run did not finish (crashed, killed or truncated); ${progress}`;
}

function number(section: string, label: string, valuePattern: string): number {
  const m = new RegExp(String.raw`^\s*${label}:\s+${valuePattern}`, 'm').exec(section);
  if (!m)
    throw new Error(`sysbench output is incomplete: no '${label}' in the ${sectionName(section)} block`);
  return Number(m[1]);
}

function count(section: string, label: string): number {
  return number(section, label, String.raw`(\d+)`);
}

function countWithRate(section: string, label: string): [number, number] {
  const m = new RegExp(String.raw`^\s*${label}:\s+(\d+)\s+\(${NUM} per sec\.\)`, 'm').exec(section);
  if (!m)
    throw new Error(`sysbench output is incomplete: no '${label}' in the ${sectionName(section)} block`);
  return [Number(m[1]), Number(m[2])];
}

function sectionName(section: string): string {
  return section.trim().split('\n', 1)[0]?.replace(/:$/, '') ?? 'final';
}
