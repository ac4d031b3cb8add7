// The trend page the Action commits beside the history (index.html on the history branch, served by GitHub Pages if
// switched on): one section per configured run, its wall-clock chart split by machine fingerprint, its counted chart
// across runners, and its entries as a table, a ✗ where the history check fails one. Static: charts are SVG rendered
// when the page is built (renderSvg), no script, nothing fetched; every value from a history line is escaped.
import type { HistoryEntry } from '../../src/history/entry.ts';
import { type RunTrend, runTrends, type TrendLimits } from '../../src/history/trend.ts';
import { oneLine } from '../../src/markdown/markdown.ts';
import { countedTrendSpec, wallClockTrendSpec } from '../charts/history-trend-spec.ts';
import { renderSvg } from '../charts/render-chart.ts';
import { escapeHtml } from '../format/format-html.ts';

const text = (value: string): string => escapeHtml(oneLine(value));

/** index.json: each entry's file-independent summary, newest last, for scripts and other pages. */
export function historyIndex(entries: readonly HistoryEntry[]): string {
  const rows = [...entries]
    .sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt))
    .map((e) => ({
      run: e.runId ?? e.title,
      recordedAt: e.recordedAt,
      commit: e.commit,
      branch: e.branch,
      workload: e.workload,
      fingerprint: e.fingerprint,
      overheadPct: e.overheadPct,
      overheadCi95: e.overheadCi95,
      instructionsPct: e.counted?.instructionsPct ?? null,
    }));
  return `${JSON.stringify({ v: 1, entries: rows }, null, 1)}\n`;
}

function row(r: RunTrend['rows'][number]): string {
  const e = r.entry;
  const failed = [r.wallClockFailed ? 'wall clock' : '', r.countedFailed ? 'counted' : '']
    .filter(Boolean)
    .join(', ');
  const wall =
    e.overheadPct === null
      ? `no figure (${e.verdict})`
      : `${e.overheadPct.toFixed(1)}%${e.overheadCi95 ? ` [${e.overheadCi95[0].toFixed(1)}, ${e.overheadCi95[1].toFixed(1)}]` : ''}`;
  const counted = e.counted
    ? `${e.counted.instructionsPct.toFixed(2)}%, ${e.counted.writeCallsAddedPerTx.toFixed(1)} writes, ${e.counted.logBytesNetAddedPerTx.toFixed(0)} log B /tx`
    : 'not counted';
  const cells = [
    failed ? `✗ ${failed}` : '',
    e.commit.slice(0, 7),
    e.recordedAt.slice(0, 16).replace('T', ' '),
    e.branch,
    e.workload,
    e.fingerprint,
    wall,
    counted,
  ];
  return `<tr${failed ? ' class="failed"' : ''}>${cells.map((c) => `<td>${text(c)}</td>`).join('')}</tr>`;
}

async function section(t: RunTrend): Promise<string> {
  const entries = t.rows.map((r) => r.entry);
  const charts = await Promise.all(
    [
      ['wall-clock', wallClockTrendSpec(entries)],
      ['counted', countedTrendSpec(entries)],
    ].map(async ([kind, spec]) =>
      spec ? `<figure class="chart ${kind as string}">${await renderSvg(spec as never)}</figure>` : '',
    ),
  );
  const head = [
    'check',
    'commit',
    'recorded (UTC)',
    'branch',
    'workload',
    'machine fingerprint',
    'wall clock',
    'counted /tx',
  ];
  return `<section class="run" data-run="${text(t.run)}">
<h2>${text(t.run)}</h2>
${charts.join('\n')}
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
<tbody>${t.rows.map(row).join('\n')}</tbody></table>
</section>`;
}

/** The whole page for the history's entries; limits as the check's (a ✗ only while maxRegressionPp is set). */
export async function trendPage(
  entries: readonly HistoryEntry[],
  options: { limits?: TrendLimits; last?: number } = {},
): Promise<string> {
  const limits = options.limits ?? { maxRegressionPp: 5, maxCountedRisePp: 1 };
  const trends = runTrends(entries, limits, { last: options.last ?? 50 });
  const sections = await Promise.all(trends.map(section));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>auditbench: the overhead's trend</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}tr.failed{background:#fde0e0}figure{margin:1em 0}</style>
</head><body>
<h1>auditbench: the overhead's trend</h1>
<p>Per configured run, its last entries on the history branch. The wall clock is compared only within one machine
fingerprint (CPU model × cores, memory): a CI runner is a new VM every job. Counted figures of one identity compare
across every runner. ✗: the history check failed the entry against the ones before it (limits: ${limits.maxRegressionPp ?? 'none'}
points of wall clock, ${limits.maxCountedRisePp} of counted instructions).</p>
${sections.length > 0 ? sections.join('\n') : '<p>No entry yet: a push to the default branch records the first.</p>'}
</body></html>
`;
}
