import type { Step } from './steps.ts';

/** The events the marker workload can tell apart, each carrying its own marker. */
export const eventKinds = ['read', 'write', 'failed', 'ddl', 'connect', 'failedLogin'] as const;
export type EventKind = (typeof eventKinds)[number];

/**
 * What the configuration says about a kind: each marker exactly once (`logged`), none (`absent`), or not judged
 * (`unchecked`: the profile says nothing about it).
 */
export type Claim = 'logged' | 'absent' | 'unchecked';
export type Claims = Record<EventKind, Claim>;

/**
 * How the log turns over during the load phase: by the plugin's own size rotation (its `rotation.configure`, with a
 * rotation count large enough that nothing is deleted before it is read), by steps the harness runs every
 * `everyMs` (a log with no rotation of its own, e.g. the general log switched to a new file), or not at all (`none`:
 * the records go where nothing rotates during the run, the run's syslog receiver's file or the general log's table;
 * `why` says so in the phase's title).
 */
export type RotationPlan =
  | { kind: 'size'; sizeBytes: number; rotations: number }
  | { kind: 'switch'; everyMs: number; steps: (k: number) => Step[] }
  | { kind: 'none'; why: string };
