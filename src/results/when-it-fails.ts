// What a verdict or a refusal means and what to do about it: each has an id, and docs/when-it-fails.md a section whose
// anchor is that id (test/architecture/when-it-fails.test.ts holds the two together). Reports print the page and the
// ids under a failing verdict, so a DBA reading a red line is one link from what to do.

/** Every kind of failing or doubtful outcome a DBA can meet, by id, with the words a report uses for it. */
export const failureKinds = {
  'over-the-limit': 'the overhead is over the run’s limit',
  inconclusive: 'the interval holds the limit',
  idle: 'the plugin logged none of the traffic',
  lifecycle: 'a lifecycle check failed',
  'p99-limit': 'the p99 latency rose more than the run allows',
  'no-measurement': 'no measurement finished',
  busy: 'measured while other processes used the CPUs',
  'not-explained': 'the counted work does not explain the wall clock',
  'not-counted': 'the counted channel did not count',
  'gate-failed': 'the gate failed a change',
  'gate-inconclusive': 'the gate could not decide',
  'bad-input': 'a setting, option or configuration was refused (exit 2)',
  'machine-refused': 'this machine cannot run it as configured',
  'server-did-not-start': 'the server did not start, or died',
  'matrix-cell': 'a matrix cell is incompatible, crash-loop or unavailable',
} as const;

export type FailureKind = keyof typeof failureKinds;

/** The page, as a DBA finds it: in a clone or in node_modules/auditbench/. */
export const WHEN_IT_FAILS_DOC = 'docs/when-it-fails.md';

/** One line under a failing verdict: where each of `kinds` is explained (in their order, each once). */
export function whereExplained(kinds: readonly FailureKind[]): string | null {
  const unique = [...new Set(kinds)];
  if (unique.length === 0) return null;
  return `what it means and what to do: auditbench's ${WHEN_IT_FAILS_DOC} (${unique.map((k) => `#${k}`).join(', ')})`;
}
