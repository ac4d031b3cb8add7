import type { MatrixSelection } from '../config/matrix-selection.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { serverFromImage } from './cell.ts';
import { expectedOutcome } from './expectations.ts';

export { type MatrixSelection, parseMatrixSelection } from '../config/matrix-selection.ts';

/** A column of the matrix, as far as planning needs it: a label, and the image (null: the local server). */
export interface PlannedTarget {
  label: string;
  image: string | null;
}

export interface PlannedCell<T extends PlannedTarget> {
  target: T;
  profile: PluginProfile;
  /** Why `sample` keeps it (empty under all and shards). */
  why: string;
}

/** The crash-loop probe's place in the list of cells: after every plugin × server cell. */
export interface MatrixPlan<T extends PlannedTarget> {
  cells: PlannedCell<T>[];
  crashLoop: boolean;
}

const kindOf = (target: PlannedTarget): string =>
  target.image === null ? 'local' : `container ${serverFromImage(target.image).flavor}`;

/**
 * The cells `sample` keeps on one container server: the claims its profiles make about it and one that works. The
 * local server gets none: the runs suite measures its plugins already (nothing measured twice), server-target shows
 * the local target, and the container cells show the matrix code; `auditbench matrix` measures its column.
 */
function sampleOn<T extends PlannedTarget>(target: T, profiles: PluginProfile[]): PlannedCell<T>[] {
  if (target.image === null) return [];
  const server = { ...serverFromImage(target.image), target: 'container' as const };
  const outcomes = profiles.map((profile) => ({ profile, expected: expectedOutcome(profile, server) }));
  const claims = outcomes.filter((o) => o.expected.outcome !== 'works' && o.expected.outcome !== 'skipped');
  const works = outcomes.find((o) => o.expected.outcome === 'works');
  return outcomes
    .filter((o) => o === works || claims.includes(o))
    .map((o) => ({
      target,
      profile: o.profile,
      why:
        o === works
          ? `${target.label} works in the matrix`
          : `a claim: ${o.expected.outcome} (${o.expected.why})`,
    }));
}

/** The cells a selection measures, in the table's order (servers, then plugins). */
export function planMatrix<T extends PlannedTarget>(
  targets: T[],
  profiles: PluginProfile[],
  selection: MatrixSelection,
): MatrixPlan<T> {
  if (selection.kind === 'sample') {
    const seen = new Set<string>();
    const cells: PlannedCell<T>[] = [];
    for (const target of targets) {
      if (seen.has(kindOf(target))) continue;
      seen.add(kindOf(target));
      cells.push(...sampleOn(target, profiles));
    }
    return { cells, crashLoop: true };
  }
  const every = targets.flatMap((target) => profiles.map((profile) => ({ target, profile, why: '' })));
  if (selection.kind === 'all') return { cells: every, crashLoop: true };
  // The crash-loop probe counts as the last cell, so that it too lands in exactly one shard.
  const inShard = (position: number) => position % selection.count === selection.index - 1;
  return { cells: every.filter((_, i) => inShard(i)), crashLoop: inShard(every.length) };
}
