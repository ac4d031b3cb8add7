// A profile carries its completeness setup (profile.completeness), so the type lives beside PluginProfile.
import type { RotationPlan } from '../plugins/completeness-claims.ts';

export type { CompletenessSetup } from '../plugins/profile.ts';
export type { RotationPlan };

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

/** The load phase's test title: what it promises of the log's rotation under this plan. */
export const loadPhaseTitle = (plan: RotationPlan, sizes: CompletenessSizes): string =>
  plan.kind === 'none'
    ? `under load, no rotation (${plan.why}): nothing lost or duplicated`
    : `under load, ${sizes.minRotations}+ rotations: nothing lost or duplicated`;
