import type { SqlSession } from './sql-session.ts';
import type { ServerFlavor, ServerInfo, TargetKind } from './started-server.ts';

/** Flavor from what the server says of itself: MariaDB names itself in VERSION(), Percona in the comment. */
export function flavorOf(version: string, comment: string): ServerFlavor {
  if (/mariadb/i.test(version)) return 'mariadb';
  return /percona/i.test(comment) ? 'percona' : 'mysql';
}

/** Asks a running server what it is; for targets that have no binary on this machine to ask. */
export async function identify(session: SqlSession, target: TargetKind): Promise<ServerInfo> {
  const { rows } = await session.query('SELECT VERSION() AS version, @@version_comment AS comment');
  const version = String(rows[0]?.version ?? '');
  return { flavor: flavorOf(version, String(rows[0]?.comment ?? '')), version, target };
}
