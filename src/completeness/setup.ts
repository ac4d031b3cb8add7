import type { PluginProfile } from '../plugins/profile.ts';
import type { Step } from '../plugins/steps.ts';
import type { Claims } from './kinds.ts';

/**
 * How the log turns over during the load phase: by the plugin's own size rotation (its `rotation.configure`, with a
 * rotation count large enough that nothing is deleted before it is read), or by steps the harness runs every
 * `everyMs` (a log with no rotation of its own, e.g. the general log switched to a new file).
 */
export type RotationPlan =
  | { kind: 'size'; sizeBytes: number; rotations: number }
  | { kind: 'switch'; everyMs: number; steps: (k: number) => Step[] };

/** What the completeness check needs to know of one plugin beyond its profile. */
export interface CompletenessSetup {
  /** The kinds the plugin, configured as the profile says (its measureSettings), claims to log. */
  claims(profile: PluginProfile): Claims;
  rotation: RotationPlan;
  /** What a crash can lose with this plugin, and why (its buffering), reported with the crash figures. */
  durabilityNote: string;
}

/** Sizes of one completeness run. */
export interface CompletenessSizes {
  /** Markers of each kind in the quiet phase, and in each round under load. */
  perKind: number;
  /** Client connections sending markers at once. */
  connections: number;
  /** The load phase sends markers under load for at least this long… */
  minLoadS: number;
  /** …and until the log has rotated this often… */
  minRotations: number;
  /** …or this much time has passed. */
  maxLoadS: number;
  /** How long the markers and sysbench run before the SIGKILL. */
  crashAfterMs: number;
}

export const smokeSizes: CompletenessSizes = {
  perKind: 20,
  connections: 4,
  minLoadS: 8,
  minRotations: 5,
  maxLoadS: 45,
  crashAfterMs: 3_000,
};
