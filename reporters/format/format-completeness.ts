import { mdText } from '../../src/markdown/markdown.ts';
import type { CompletenessPhase, PluginResult } from '../../src/results/schema.ts';
import type { HtmlTable, ReportSection } from './format-html.ts';

const COLUMNS = ['kind', 'claim', 'sent', 'acked', 'logged', 'lost', 'duplicated', 'unanswered'] as const;

const kindRows = (phase: CompletenessPhase): string[][] =>
  phase.kinds.map((k) => [
    k.kind,
    k.claim,
    String(k.sent),
    String(k.acked),
    String(k.logged),
    String(k.lost),
    String(k.duplicated),
    String(k.unanswered),
  ]);

/** One line under a phase's table: rotations, files, torn lines, load, crash losses, verdict. */
export function phaseSummary(phase: CompletenessPhase): string {
  const parts = [
    `${phase.phase}: ${phase.ok ? 'ok' : 'FAIL'}`,
    `${phase.rotations} rotations, ${phase.logFiles} log files`,
    phase.filesDeleted > 0 ? `${phase.filesDeleted} files deleted before reading` : null,
    phase.loadTps === null ? 'no load' : `under ${phase.loadTps.toFixed(0)} TPS`,
    `${phase.tornLines} torn lines, ${phase.damagedLines} unparsed`,
    phase.lostAtCrash === null ? null : `lost at crash: ${phase.lostAtCrash}`,
    phase.afterRestart
      ? `after restart installed=${phase.afterRestart.observed.installed} logging=${phase.afterRestart.observed.loggingOn}`
      : null,
    `${phase.durationS.toFixed(0)} s`,
  ];
  return parts.filter((p) => p !== null).join(', ');
}

/** Plain-text table of one phase, for the suite's log. */
export function formatCompletenessTable(phase: CompletenessPhase): string {
  const rows = [COLUMNS.map(String), ...kindRows(phase)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return [...rows.map(line), phaseSummary(phase)].join('\n');
}

/** summary.md: per result that ran the completeness suite, one table per phase; '' when none did. */
export function formatCompletenessMarkdown(results: readonly PluginResult[]): string {
  const checked = results.filter((r) => (r.completeness?.length ?? 0) > 0);
  if (checked.length === 0) return '';
  const out = ['### Completeness (markers sent vs. logged)', ''];
  for (const r of checked) {
    for (const phase of r.completeness ?? []) {
      out.push(`**${mdText(r.title)}**, ${mdText(phaseSummary(phase))}`, '');
      out.push(`| ${COLUMNS.join(' | ')} |`, `|${' --- |'.repeat(COLUMNS.length)}`);
      out.push(...kindRows(phase).map((row) => `| ${row.map(mdText).join(' | ')} |`), '');
      if (!phase.ok || phase.phase === 'crash')
        out.push(`- ${mdText(phase.reason)}`, `- ${mdText(phase.durabilityNote)}`, '');
    }
  }
  return out.join('\n');
}

/** The HTML report's completeness section, or null when no result carries completeness phases. */
export function completenessSection(results: readonly PluginResult[]): ReportSection | null {
  const checked = results.filter((r) => (r.completeness?.length ?? 0) > 0);
  if (checked.length === 0) return null;
  const tables: HtmlTable[] = checked.flatMap((r) =>
    (r.completeness ?? []).map((phase) => ({
      caption: `${r.title}: ${phase.phase}`,
      head: COLUMNS.map((text) => ({ text })),
      rows: kindRows(phase),
      notes: [phaseSummary(phase), phase.reason, ...(phase.phase === 'crash' ? [phase.durabilityNote] : [])],
    })),
  );
  return {
    heading: 'Completeness',
    lines: [
      'Each marker is sent once; every log file, current and rotated, must hold each marker of a kind the configuration logs exactly once, and none of a kind it excludes. At a SIGKILL, acked markers missing from the log are counted as lost at crash.',
    ],
    figures: [],
    tables,
  };
}

/** The console summary: per result, each phase's table; '' when no result carries completeness phases. */
export function formatCompletenessText(results: readonly PluginResult[]): string {
  return results
    .filter((r) => (r.completeness?.length ?? 0) > 0)
    .map((r) => [r.title, ...(r.completeness ?? []).map(formatCompletenessTable)].join('\n'))
    .join('\n\n');
}
