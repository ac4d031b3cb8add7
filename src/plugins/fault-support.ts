// What a profile says about the fault phase (src/faults): its vocabulary lives with the profile type, so that
// src/plugins need not import the phase that reads it.

import { type FaultName, faultNames } from '../results/fault-record.ts';
import type { Step } from './steps.ts';

export { type FaultName, faultNames };

/**
 * How audit records come back after a fault, the first rung that worked: on their own, after the plugin's reopen
 * command, after its enable steps again (logging had switched itself off), after a restart, or not at all.
 */
export const recoveries = [
  'by itself',
  'after reopen',
  'after enable',
  'after restart',
  'not recovered',
] as const;
export type Recovery = (typeof recoveries)[number];

/** What the server answered when logging was switched on into a directory it cannot write. */
export const enableAnswers = [
  'error',
  'warning',
  'silent',
  'plugin not loaded',
  'server did not start',
] as const;
export type EnableAnswer = (typeof enableAnswers)[number];

/**
 * The facts of each fault that a profile pins (a change is a failed check), each a plain value. Figures that depend
 * on timing (how many markers a race loses, how long a stall lasts) are recorded, never expected.
 */
export interface FaultFacts {
  'disk-full': { serverUp: boolean; recordsLost: boolean; recovery: Recovery };
  frozen: { serverUp: boolean; auditedStatementsWait: boolean; recovery: Recovery };
  /** Whether records go on into the renamed file until told, and what makes it write the named file again. */
  moved: { writesMovedFile: boolean; recovery: Recovery };
  /** Whether the truncated file gets a hole of NUL bytes (the plugin writes at its old offset, not O_APPEND). */
  copytruncate: { holeAfterTruncate: boolean };
  'read-only-dir': { answer: EnableAnswer; loggingOn: boolean };
  'missing-dir': { answer: EnableAnswer; loggingOn: boolean };
}

/** A profile's part in the fault phase: how to move its log onto the harness's filesystem, reopen it, and what it does. */
export interface FaultSupport {
  /** Steps that make the plugin write `<dir>/<its file name>` (dir relative to the datadir); logging is left as it is. */
  logIn(dir: string): Step[];
  /** The plugin's own command to open its file again by name, and the source line that says it does. */
  reopen: { steps: Step[]; source: string };
  /** Steps that switch logging on and leave the file alone, when the profile's `enable` also names the file. */
  enable?: Step[];
  /** LIKE pattern of status counters worth recording (e.g. 'Server\\_audit%'), or null. */
  statusLike: string | null;
  /** Behaviour observed on MariaDB 10.11; a fault left out is recorded, not checked. */
  expected: Partial<FaultFacts>;
}
