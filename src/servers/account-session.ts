import { SqlError, SqlSession } from './sql-session.ts';
import type { ConnectionOptions, QueryResult, StartedServer } from './started-server.ts';

/** Statements sent as one account, on one kept connection: how a check's traffic reaches the plugin. */
export interface AccountSession {
  /** The account's user name, as the audit log records it. */
  readonly user: string;
  query(sql: string): Promise<QueryResult>;
  /**
   * The id the server gives this session's connection (CONNECTION_ID(), the audit record's connection id), read
   * without sending a statement; null where the session cannot tell (the admin session a unit test fakes).
   */
  connectionId(): Promise<number | null>;
  close(): Promise<void>;
}

/**
 * A session as `connection`'s account. A restart (the checks restart the server between statements) drops the
 * connection; the statement is then sent once more on a new one, so a check never sees a stale socket.
 */
export function accountSession(connection: ConnectionOptions): AccountSession {
  let session = new SqlSession(connection);
  return {
    user: connection.user,
    async query(sql) {
      try {
        return await session.query(sql);
      } catch (error) {
        if (error instanceof SqlError) throw error;
        await session.close();
        session = new SqlSession(connection);
        return session.query(sql);
      }
    },
    connectionId: () => session.connectionId(),
    close: () => session.close(),
  };
}

/** The server's own admin connection as an AccountSession (a run with an account set to 'root', and unit tests). */
export const serverSession = (server: StartedServer): AccountSession => ({
  user: server.connection.user,
  query: (sql) => server.query(sql),
  // The server's admin queries may go through more than one connection: which one a statement takes is not known.
  connectionId: async () => null,
  close: async () => {},
});
