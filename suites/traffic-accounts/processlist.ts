import { SqlSession } from '../../src/servers/sql-session.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';

const LIST =
  "SELECT USER, COMMAND, INFO FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND USER NOT IN ('system user', 'event_scheduler', '')";

/** A client thread the server listed: its account and what it was running (null while idle). */
export interface SeenThread {
  user: string;
  command: string;
  info: string | null;
}

/**
 * Samples information_schema.PROCESSLIST on its own root connection (left out of what it sees) every `everyMs` until
 * stopped, keeping each distinct (user, command, statement's first words) once. Server threads without an account
 * (InnoDB's, the event scheduler's) are left out.
 */
export function sampleProcesslist(server: StartedServer, everyMs = 250): { stop(): Promise<SeenThread[]> } {
  const session = new SqlSession(server.connection);
  const seen = new Map<string, SeenThread>();
  let running = true;
  const loop = (async () => {
    while (running) {
      // A sample lost to a restart or a busy moment is only a sample fewer.
      const rows = await session.query(LIST).then(
        (result) => result.rows,
        () => [],
      );
      for (const row of rows) {
        const info = row.INFO === null ? null : String(row.INFO).slice(0, 60);
        const thread = { user: String(row.USER), command: String(row.COMMAND), info };
        seen.set(JSON.stringify(thread), thread);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await session.close();
      return [...seen.values()];
    },
  };
}
