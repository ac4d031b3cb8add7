import type { PluginProfile } from '../plugins/profile.ts';
import type { ServerInfo } from '../servers/started-server.ts';
import type { CellOutcome } from './cell.ts';

/**
 * What a matrix cell is expected to come to: what the profile's matrix expectations say for this server, else
 * 'works' on the flavors it is built for and 'skipped' on the others.
 */
export function expectedOutcome(
  profile: Pick<PluginProfile, 'flavors' | 'matrix'>,
  server: ServerInfo,
): { outcome: CellOutcome; why: string } {
  const override = profile.matrix?.expectations.find((e) => e.server(server));
  if (override) return { outcome: override.outcome, why: override.why };
  if (!profile.flavors.includes(server.flavor))
    return { outcome: 'skipped', why: `not for ${server.flavor}` };
  return { outcome: 'works', why: 'the plugin is built for this server' };
}

/** The profiles the matrix crosses with every server, in the registry's order. */
export const matrixProfiles = (registry: Readonly<Record<string, PluginProfile>>): PluginProfile[] =>
  Object.values(registry).filter((p) => p.matrix?.crossed === true);

/** The libraries the crossed profiles lend to images that lack them (`matrix.lend`). */
export const borrowedPlugins = (
  registry: Readonly<Record<string, PluginProfile>>,
): { file: string; into: (image: string) => boolean }[] =>
  matrixProfiles(registry).flatMap((p) => (p.matrix?.lend ? [p.matrix.lend] : []));
