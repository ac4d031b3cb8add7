import type { LifecycleCheck } from '../../src/results/lifecycle-check.ts';

/** One configuration of the sweep and what its lifecycle checks found. */
export interface SweepRow {
  profile: string;
  id: string;
  /** The configuration as `name=value`, startup options marked (my.cnf). */
  configuration: string;
  checks: LifecycleCheck[];
  durationMs: number;
}

/** 'pass', 'n/a: <why>' or 'FAIL': a check whose expected and observed are both 'not applicable' says why. */
export function outcome(check: { ok: boolean; observed: unknown; details?: unknown }): string {
  if (!check.ok) return 'FAIL';
  if (check.observed !== 'not applicable') return 'pass';
  const why = (check.details as { why?: unknown } | undefined)?.why;
  return `n/a: ${typeof why === 'string' ? why : 'no reason given'}`;
}

const cell = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
};

/** Markdown: a line per configuration and check, with expected, observed and outcome. */
export function sweepTable(rows: SweepRow[]): string {
  const lines = [
    '| profile | configuration | check | expected | observed | outcome |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    for (const check of row.checks) {
      const [expected, observed] =
        check.observed === 'not applicable' ? ['—', '—'] : [check.expected, check.observed];
      const cells = [
        row.profile,
        `${row.id}: ${row.configuration}`,
        check.check,
        expected,
        observed,
        outcome(check),
      ];
      lines.push(`| ${cells.map(cell).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** One line per configuration: how many checks passed, were not applicable and failed, and how long it took. */
export function sweepSummary(rows: SweepRow[]): string {
  return rows
    .map((row) => {
      const outcomes = row.checks.map(outcome);
      const count = (prefix: string) => outcomes.filter((o) => o.startsWith(prefix)).length;
      const seconds = (row.durationMs / 1000).toFixed(1);
      return `${row.profile} ${row.id}: ${count('pass')} pass, ${count('n/a')} n/a, ${count('FAIL')} fail, ${seconds} s`;
    })
    .join('\n');
}
