import type { StartedServer } from '../servers/started-server.ts';

const identifier = /^[A-Za-z0-9_]+$/;

/** PLUGIN_STATUS from information_schema.PLUGINS (ACTIVE, DISABLED, DELETED, …), or null when not listed. */
export async function pluginStatus(server: StartedServer, name: string): Promise<string | null> {
  if (!identifier.test(name)) throw new Error(`Plugin name '${name}' is not a plain identifier`);
  const { rows } = await server.query(
    `SELECT PLUGIN_STATUS AS status FROM information_schema.PLUGINS WHERE PLUGIN_NAME = '${name}'`,
  );
  return rows[0] ? String(rows[0].status) : null;
}

/** SHOW GLOBAL VARIABLES or STATUS LIKE pattern, as name → value as the server wrote it. */
export async function showGlobal(
  server: StartedServer,
  what: 'VARIABLES' | 'STATUS',
  like: string,
): Promise<Record<string, string>> {
  const { rows } = await server.query(`SHOW GLOBAL ${what} LIKE '${like.replaceAll("'", "''")}'`);
  return Object.fromEntries(rows.map((row) => [String(row.Variable_name), String(row.Value)]));
}

/** SHOW GLOBAL VARIABLES LIKE pattern, as name → value. */
export const readVariables = (server: StartedServer, like: string): Promise<Record<string, string>> =>
  showGlobal(server, 'VARIABLES', like);

export interface VariableChange {
  name: string;
  default: string | null;
  before: string | null;
  after: string | null;
}

/** Variables whose value before a restart or after it differs from the default. */
export function variableDiff(
  defaults: Record<string, string>,
  before: Record<string, string>,
  after: Record<string, string>,
): VariableChange[] {
  const names = [
    ...new Set([...Object.keys(defaults), ...Object.keys(before), ...Object.keys(after)]),
  ].sort();
  return names
    .map((name) => ({
      name,
      default: defaults[name] ?? null,
      before: before[name] ?? null,
      after: after[name] ?? null,
    }))
    .filter((c) => c.before !== c.default || c.after !== c.default);
}
