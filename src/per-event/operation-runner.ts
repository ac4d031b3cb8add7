import mysql from 'mysql2/promise';
import type { OperationKind } from '../results/per-event-operations.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';

const TABLE = 'auditbench.per_event';
const ROWS = 1_000;
/** A user that does not exist, so every login fails the same way whatever the server's own accounts are. */
const UNKNOWN_USER = 'auditbench_no_such_user';

export type Operation = () => Promise<void>;

export interface OperationSet extends AsyncDisposable {
  operations: Record<OperationKind, Operation>;
}

const connectOptions = (c: ConnectionOptions, user = c.user, password = c.password) => ({
  ...(c.socketPath ? { socketPath: c.socketPath } : { host: c.host, port: c.port }),
  user,
  password,
  connectTimeout: 5_000,
});

/** The table the statements read and write: 1 000 short rows, created once per server. */
export async function createPerEventTable(server: StartedServer): Promise<void> {
  await server.query('CREATE DATABASE IF NOT EXISTS auditbench');
  await server.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await server.query(`CREATE TABLE ${TABLE} (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(60) NOT NULL)`);
  const rows = Array.from({ length: ROWS }, (_, i) => `(${i + 1}, ${i}, '${'x'.repeat(60)}')`);
  await server.query(`INSERT INTO ${TABLE} VALUES ${rows.join(',')}`);
}

/** Expects the server to refuse: resolves on a server error with `errno`, throws on success or anything else. */
async function refusedWith(errno: number, what: string, attempt: () => Promise<unknown>): Promise<void> {
  try {
    await attempt();
  } catch (error) {
    if ((error as { errno?: unknown }).errno === errno) return;
    throw new Error(
      `${what} should fail with error ${errno}, but failed otherwise: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  throw new Error(`${what} should fail with error ${errno}, but the server accepted it`);
}

/**
 * One operation per kind, over one kept connection for the statements and fresh ones for the logins, all as `as`:
 * the traffic's application account (its privileges on database auditbench cover the table), or root when absent.
 */
export async function openOperations(
  server: StartedServer,
  as: ConnectionOptions = server.connection,
): Promise<OperationSet> {
  const c = as;
  const session = await mysql.createConnection(connectOptions(c));
  let id = 0;
  const nextId = () => (id = (id % ROWS) + 1);
  const operations: Record<OperationKind, Operation> = {
    'point-select': async () => {
      await session.query(`SELECT c FROM ${TABLE} WHERE id = ${nextId()}`);
    },
    update: async () => {
      await session.query(`UPDATE ${TABLE} SET k = k + 1 WHERE id = ${nextId()}`);
    },
    'failing-statement': () =>
      refusedWith(1146, 'SELECT from a missing table', () =>
        session.query('SELECT * FROM auditbench.no_such_table'),
      ),
    'connect-disconnect': async () => {
      const connection = await mysql.createConnection(connectOptions(c));
      await connection.end();
    },
    'failed-login': () =>
      refusedWith(1045, `a login as ${UNKNOWN_USER}`, async () => {
        const connection = await mysql.createConnection(connectOptions(c, UNKNOWN_USER, 'wrong'));
        await connection.end();
      }),
  };
  return {
    operations,
    async [Symbol.asyncDispose]() {
      await session.end().catch(() => session.destroy());
    },
  };
}
