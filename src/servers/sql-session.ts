import mysql from 'mysql2/promise';
import type { ConnectionOptions, QueryResult, Row } from './started-server.ts';

/** A statement the server refused; errno lets a lifecycle step tell an expected refusal from a failure. */
export class SqlError extends Error {
  constructor(
    message: string,
    readonly errno: number,
    readonly sqlState: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SqlError';
  }
}

interface MysqlError {
  errno?: number;
  sqlState?: string;
  sqlMessage?: string;
  code?: string;
  message?: string;
}

function toSqlError(sql: string, error: unknown): Error {
  const e = (error ?? {}) as MysqlError;
  if (typeof e.errno === 'number' && e.sqlMessage) {
    return new SqlError(
      `ERROR ${e.errno} (${e.sqlState}): ${e.sqlMessage} [in: ${sql}]`,
      e.errno,
      e.sqlState ?? '',
      {
        cause: error,
      },
    );
  }
  return new Error(`Query failed (${e.code ?? 'no code'}): ${e.message ?? String(error)} [in: ${sql}]`, {
    cause: error,
  });
}

/** Maps mysql2's result to plain rows: row packets become objects, an OK packet becomes no rows. */
function toRows(result: unknown): Row[] {
  if (!Array.isArray(result)) return [];
  return result.map((row) => ({ ...(row as Row) }));
}

function warningCount(result: unknown): number {
  if (result && !Array.isArray(result) && typeof result === 'object' && 'warningStatus' in result) {
    return Number((result as { warningStatus: unknown }).warningStatus) || 0;
  }
  return 0;
}

/** One lazily opened connection; it is reopened after a restart or a lost connection. */
export class SqlSession {
  #connection: mysql.Connection | null = null;

  constructor(private readonly options: ConnectionOptions) {}

  async #connect(): Promise<mysql.Connection> {
    if (this.#connection) return this.#connection;
    const { host, port, user, password, socketPath } = this.options;
    const connection = await mysql.createConnection({
      ...(socketPath ? { socketPath } : { host, port }),
      user,
      password,
      connectTimeout: 5_000,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
    });
    connection.on('error', () => {
      this.#connection = null;
    });
    this.#connection = connection;
    return connection;
  }

  async query(sql: string): Promise<QueryResult> {
    const connection = await this.#connect();
    try {
      const [result] = await connection.query(sql);
      const warnings =
        warningCount(result) > 0 ? toRows((await connection.query('SHOW WARNINGS'))[0]).map(toWarning) : [];
      return { rows: toRows(result), warnings };
    } catch (error) {
      if ((error as MysqlError).errno === undefined) await this.close();
      throw toSqlError(sql, error);
    }
  }

  /** The server's id for this session's connection (CONNECTION_ID()), from the handshake: no statement is sent. */
  async connectionId(): Promise<number> {
    return (await this.#connect()).threadId;
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = null;
    await connection?.end().catch(() => connection.destroy());
  }
}

function toWarning(row: Row): QueryResult['warnings'][number] {
  return { level: String(row.Level), code: Number(row.Code), message: String(row.Message) };
}

/** Tries to connect until the deadline; resolves true when the server answered. */
export async function canConnect(options: ConnectionOptions): Promise<boolean> {
  const session = new SqlSession(options);
  try {
    await session.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await session.close();
  }
}
