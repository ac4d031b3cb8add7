import type { ServerInfo } from '../servers/started-server.ts';
import type { CellOutcome } from './cell.ts';

/** What a matrix cell is expected to come to when it differs from the default ('works', or 'skipped' off-flavor). */
export interface CellExpectation {
  plugin: string;
  server: (info: ServerInfo) => boolean;
  outcome: CellOutcome;
  why: string;
}

export const cellExpectations: CellExpectation[] = [
  {
    plugin: 'MariaDB server_audit',
    server: (s) => s.flavor === 'mysql' && /^(8\.[1-9]|9\.)/.test(s.version),
    outcome: 'incompatible',
    why: "MariaDB's server_audit.so needs the MariaDB/MySQL 5.x plugin API: MySQL 9.7 refuses it (undefined symbol: PSI_server)",
  },
  {
    plugin: 'McAfee/Trellix AUDIT',
    server: (s) => s.target !== 'local',
    outcome: 'unavailable',
    why: 'built from source for the local mariadbd only (scripts/plugins/build-mcafee-audit.sh): its THD offsets belong to that binary; v1.2.5 knows no MySQL after 8.4.5',
  },
];

export function expectedOutcome(
  plugin: string,
  flavors: string[],
  server: ServerInfo,
): { outcome: CellOutcome; why: string } {
  const override = cellExpectations.find((e) => e.plugin === plugin && e.server(server));
  if (override) return { outcome: override.outcome, why: override.why };
  if (!flavors.includes(server.flavor)) return { outcome: 'skipped', why: `not for ${server.flavor}` };
  return { outcome: 'works', why: 'the plugin is built for this server' };
}

/**
 * Libraries lent to images that lack them, so the matrix can try one server's plugin on another: MariaDB's
 * server_audit.so on MySQL is the seed's version-mismatch case. Paths are on the machine running the suites.
 */
export const borrowedPlugins: { file: string; into: (image: string) => boolean }[] = [
  { file: '/usr/lib/mysql/plugin/server_audit.so', into: (image) => /mysql|percona/i.test(image) },
];
