/**
 * The closing lines' list of what failed: CI logs often keep only a run's last lines, and a count of "1 failed"
 * there does not say which test, so each failure is named with the first line of its error.
 */

/** What the list needs of a failed test or of a suite whose hook (or file) failed. */
export interface Failure {
  file: string;
  /** The test's full name; for a hook or file error, the suite's name, or null for the file itself. */
  name: string | null;
  kind: 'test' | 'hook';
  message: string;
}

/** Longest error line kept: an assertion's diff or a server log goes to the test's own output, not here. */
const MAX_MESSAGE = 240;

const firstLine = (message: string) => {
  const line = message.split('\n').find((l) => l.trim() !== '') ?? '(no message)';
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
};

export function formatFailures(failures: Failure[]): string {
  if (failures.length === 0) return '';
  const lines = failures.map((f) => {
    const where = f.name ? `${f.file} > ${f.name}` : f.file;
    const what = f.kind === 'hook' ? 'a hook or the file failed: ' : '';
    return `- ${where}: ${what}${firstLine(f.message)}`;
  });
  return `failed (${failures.length}):\n${lines.join('\n')}\n`;
}
