import { setTimeout as sleep } from 'node:timers/promises';
import type { StartedServer } from '../servers/started-server.ts';

/** The harness's own connection: its processlist id and OS thread id (null where the server shows no TID). */
export async function ownThread(server: StartedServer): Promise<{ id: number; tid: number | null }> {
  const { rows } = await server.query(
    'SELECT ID AS id, TID AS tid FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()',
  );
  const row = rows[0];
  if (!row)
    throw new Error('The counted server did not show the harness its own connection in the processlist');
  return { id: Number(row.id), tid: row.tid === null || row.tid === undefined ? null : Number(row.tid) };
}

/** The server's Threads_created counter: connection threads started since it came up. */
export async function threadsCreated(server: StartedServer): Promise<number> {
  const { rows } = await server.query("SHOW GLOBAL STATUS LIKE 'Threads_created'");
  return Number(rows[0]?.Value ?? 0);
}

/** The OS thread ids of the connections other than the harness's own (`ownId`), as the processlist shows them now. */
export async function connectionTids(server: StartedServer, ownId: number): Promise<number[]> {
  const { rows } = await server.query(
    `SELECT TID AS tid FROM information_schema.PROCESSLIST WHERE ID <> ${ownId} AND COMMAND <> 'Daemon' AND TID IS NOT NULL`,
  );
  return rows.map((row) => Number(row.tid));
}

/** Collects the OS thread ids of the connections other than the harness's own while sysbench runs. */
export function pollConnectionThreads(
  server: StartedServer,
  ownId: number,
  tids: Set<number>,
): { stop(): void; done: Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      for (const tid of await connectionTids(server, ownId)) tids.add(tid);
      await sleep(20);
    }
  })();
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/**
 * The warm-up's sysbench connections, as the processlist showed them, must be threads the count includes. Under
 * one-thread-per-connection only: the thread pool's processlist shows TID 0 for every connection, and the count
 * takes the whole process there.
 */
export function checkPolled(threads: {
  polled: ReadonlySet<number>;
  background: ReadonlySet<number>;
  own: number | null;
}): void {
  if (threads.polled.size === 0)
    throw new Error('The counted warm-up saw no connection of sysbench in the processlist');
  const left = [...threads.polled].filter((tid) => threads.background.has(tid) || tid === threads.own);
  if (left.length > 0)
    throw new Error(
      `The counted warm-up saw sysbench served by thread ${left.join(', ')}, which the count leaves out as the server's own or the harness's: the server had clients other than the harness when it was set up`,
    );
}
