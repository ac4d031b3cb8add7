import type { Calibration } from '../results/schema.ts';
import type { ResultRecord } from '../results/task-meta.ts';

/** What a test hands to Vitest: its record, then a skip, an error, a failure line or values to compare, in order. */
export interface Outcome {
  record?: ResultRecord;
  skip?: string;
  error?: unknown;
  failure?: string;
  expectations?: { label: string; observed: unknown; expected: unknown }[];
}

/** An A/A's one expectation: its interval holds 0. `at` says where it was measured when not the workload's own point. */
export const holdsZero = (calibration: Calibration, at = ''): Outcome['expectations'] => [
  {
    label: `the A/A interval${at} should contain 0: the design is biased or the machine drifted`,
    observed: calibration.containsZero,
    expected: true,
  },
];

/**
 * An error as one line for a DBA: its message's first non-empty line, never its stack. A channel that failed says
 * this much and gives way to the other (gate-comparison.ts, counted-cost.ts).
 */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line ?? (error instanceof Error ? error.name : 'an error with no message');
}
