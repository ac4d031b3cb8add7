import type { StartedServer } from '../servers/started-server.ts';

/**
 * thread_handling and the counted channel. Under `one-thread-per-connection` (the default) a connection's work is its
 * own thread's; under `pool-of-threads` a few workers serve every connection in turn, so the channel counts what the
 * whole server process did over an arm, less an idle stretch (src/counted/thread-io.ts, machine-rates.ts);
 * `no-threads` serves one connection at a time and is refused before any server starts.
 */

/** A thread_handling value as the server reads it: case and quotes aside. */
export function normalThreadHandling(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2')
    .toLowerCase();
}

export const isThreadPool = (value: string | null | undefined): boolean =>
  normalThreadHandling(value) === 'pool-of-threads';

/** thread_handling as the run's my.cnf options give it (written `loose-`, either spelling), or null. */
export function threadHandlingOf(startupOptions: Record<string, string>): string | null {
  const key = Object.keys(startupOptions).find((k) => /^(loose-)?thread[_-]handling$/.test(k));
  return key === undefined ? null : (startupOptions[key] ?? null);
}

/**
 * The one line that refuses `thread_handling=no-threads` (`value` as given) for the run `id`. That server serves one
 * connection at a time, on its main thread, and auditbench keeps a connection of its own beside sysbench's (the
 * counted channel's markers, the wall clock's switches), so the run would wait on itself.
 */
export const noThreadsLine = (id: string, value: string): string =>
  `run ${id}: thread_handling=${value} serves one connection at a time, and auditbench keeps a connection of its own beside sysbench's (the counted channel's markers, the wall clock's switches): set thread_handling to one-thread-per-connection or pool-of-threads in the run's option file or startupOptions`;

/** The refusal of the first run whose options set `thread_handling=no-threads`, or null. */
export function noThreadsRefusal(
  runs: readonly { id: string; startupOptions: Record<string, string> }[],
): string | null {
  for (const run of runs) {
    const value = threadHandlingOf(run.startupOptions);
    if (normalThreadHandling(value) === 'no-threads') return noThreadsLine(run.id, value ?? '');
  }
  return null;
}

/** The server's own answer: what it runs, whatever the options said. */
export async function serverThreadHandling(server: StartedServer): Promise<string | null> {
  const { rows } = await server.query('SELECT @@thread_handling AS handling');
  return normalThreadHandling(rows[0]?.handling === undefined ? null : String(rows[0].handling));
}
