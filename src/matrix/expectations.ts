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

/**
 * Libraries lent to images that lack them, so the matrix can try one server's plugin on another: MariaDB's
 * server_audit.so on MySQL is the seed's version-mismatch case. Paths are on the machine running the suites.
 */
export const borrowedPlugins: { file: string; into: (image: string) => boolean }[] = [
  { file: '/usr/lib/mysql/plugin/server_audit.so', into: (image) => /mysql|percona/i.test(image) },
];
