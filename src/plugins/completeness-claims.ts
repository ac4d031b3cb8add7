import type { PluginProfile } from './profile.ts';
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
 * rotation count large enough that nothing is deleted before it is read), or by steps the harness runs every
 * `everyMs` (a log with no rotation of its own, e.g. the general log switched to a new file).
 */
export type RotationPlan =
  | { kind: 'size'; sizeBytes: number; rotations: number }
  | { kind: 'switch'; everyMs: number; steps: (k: number) => Step[] };

/**
 * What the completeness check needs to know of one plugin beyond the rest of its profile. It lives here, beside the
 * profile type, because a profile carries it (`profile.completeness`); src/completeness reads it.
 */
export interface CompletenessSetup {
  /** The kinds the plugin, configured as the profile says (its measureSettings), claims to log. */
  claims(profile: PluginProfile): Claims;
  rotation: RotationPlan;
  /** What a crash can lose with this plugin, and why (its buffering), reported with the crash figures. */
  durabilityNote: string;
}
