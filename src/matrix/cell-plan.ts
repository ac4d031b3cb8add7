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
  /** Whether the cell's overhead is measured; false: its lifecycle only (the sample's other works cells). */
  measure: boolean;
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
      measure: true,
      why:
        o === works
          ? `${target.label} works in the matrix`
          : `a claim: ${o.expected.outcome} (${o.expected.why})`,
    }));
}

/**
 * The sample measures one works cell, the last server's: one measurement shows the matrix's measuring path in a
 * container, and the first server's plugin (MariaDB's server_audit on 10.11 by default) is the one the runs suite
 * measures on the local MariaDB. The other works cells check their lifecycle only; `auditbench matrix` measures all.
 */
function measuringOne<T extends PlannedTarget>(cells: PlannedCell<T>[]): PlannedCell<T>[] {
  const last = cells.filter((cell) => cell.why.endsWith('works in the matrix')).at(-1);
  return cells.map((cell) =>
    cell.why.endsWith('works in the matrix') && cell !== last
      ? {
          ...cell,
          measure: false,
          why: `${cell.why} (its lifecycle; the sample measures ${last?.target.label})`,
        }
      : cell,
  );
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
    return { cells: measuringOne(cells), crashLoop: true };
  }
  const every = targets.flatMap((target) =>
    profiles.map((profile) => ({ target, profile, why: '', measure: true })),
  );
  if (selection.kind === 'all') return { cells: every, crashLoop: true };
  // The crash-loop probe counts as the last cell, so that it too lands in exactly one shard.
  const inShard = (position: number) => position % selection.count === selection.index - 1;
  return { cells: every.filter((_, i) => inShard(i)), crashLoop: inShard(every.length) };
}
