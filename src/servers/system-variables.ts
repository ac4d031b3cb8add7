// What the server says of its own variables: whether each can be changed while it runs, and for whom.

import { serverValueLiteral } from '../config/settings.ts';
import { SqlError } from './sql-session.ts';
import type { StartedServer } from './started-server.ts';

/** One row of information_schema.SYSTEM_VARIABLES (MariaDB), names lowercased. */
export interface SystemVariable {
  name: string;
  /** GLOBAL; SESSION (a global value that new connections copy); SESSION ONLY. */
  scope: string;
  /** VARIABLE_TYPE: BOOLEAN, INT UNSIGNED, BIGINT, DOUBLE, ENUM, SET, VARCHAR, … */
  type: string;
  readOnly: boolean;
}

/** The rows for the names asked, or why the server has none to give (MySQL has no such table). */
export type SystemVariables = { kind: 'rows'; rows: SystemVariable[] } | { kind: 'unavailable'; why: string };

// ER_UNKNOWN_TABLE, ER_BAD_FIELD_ERROR: MySQL keeps no information_schema.SYSTEM_VARIABLES, older servers no READ_ONLY.
const NO_SUCH_TABLE_OR_COLUMN = [1109, 1054];

/** One row as the server returns it (VARIABLE_NAME, VARIABLE_SCOPE, VARIABLE_TYPE, READ_ONLY), typed. */
export const systemVariableOf = (row: Record<string, unknown>): SystemVariable => ({
  name: String(row.VARIABLE_NAME).toLowerCase(),
  scope: String(row.VARIABLE_SCOPE).toUpperCase(),
  type: String(row.VARIABLE_TYPE).toUpperCase(),
  readOnly: String(row.READ_ONLY).toUpperCase() === 'YES',
});

/** The server's rows for the variables named (lowercase, underscores); names that are no variable have none. */
export async function readSystemVariables(
  server: StartedServer,
  names: readonly string[],
): Promise<SystemVariables> {
  const wanted = names.filter((name) => /^[a-z0-9_]+$/i.test(name)).map((name) => `'${name.toUpperCase()}'`);
  if (wanted.length === 0) return { kind: 'rows', rows: [] };
  try {
    const { rows } = await server.query(
      `SELECT VARIABLE_NAME, VARIABLE_SCOPE, VARIABLE_TYPE, READ_ONLY FROM information_schema.SYSTEM_VARIABLES WHERE VARIABLE_NAME IN (${wanted.join(', ')})`,
    );
    return { kind: 'rows', rows: rows.map(systemVariableOf) };
  } catch (error) {
    if (error instanceof SqlError && NO_SUCH_TABLE_OR_COLUMN.includes(error.errno)) {
      return {
        kind: 'unavailable',
        why: `${server.info.flavor} ${server.info.version} gives no READ_ONLY for its variables (information_schema.SYSTEM_VARIABLES: ${error.message})`,
      };
    }
    throw error;
  }
}

/** The server's global value of each variable named, as an SQL literal (a setting one arm leaves unset puts it back). */
export async function readGlobalValues(
  server: StartedServer,
  names: readonly string[],
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of names) {
    if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`'${name}' is not a server variable's name`);
    const { rows } = await server.query(`SELECT @@GLOBAL.${name} AS value`);
    values[name] = serverValueLiteral(rows[0]?.value);
  }
  return values;
}
