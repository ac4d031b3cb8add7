import type { CompletenessPhase, PluginResult } from '../../src/results/schema.ts';
import type { SectionContent } from './section.ts';

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

const checked = (results: readonly PluginResult[]) =>
  results.filter((r) => (r.completeness?.length ?? 0) > 0);

/** Whether any result ran the completeness suite. */
export const hasCompleteness = (results: readonly PluginResult[]): boolean => checked(results).length > 0;

/** Per result that ran the completeness suite, a table per phase with its summary and what it means. */
export function completenessContent(results: readonly PluginResult[]): SectionContent {
  return {
    about: [
      'Each marker is sent once; every log file, current and rotated, must hold each marker of a kind the configuration logs exactly once, and none of a kind it excludes. At a SIGKILL, acked markers missing from the log are counted as lost at crash.',
    ],
    tables: checked(results).flatMap((r) =>
      (r.completeness ?? []).map((phase) => ({
        caption: `${r.title}: ${phase.phase}`,
        head: COLUMNS.map((text) => ({ text })),
        rows: kindRows(phase),
        notes: [
          phaseSummary(phase),
          phase.reason,
          ...(phase.phase === 'crash' ? [phase.durabilityNote] : []),
        ],
      })),
    ),
  };
}
