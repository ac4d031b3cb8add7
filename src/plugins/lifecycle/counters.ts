import type { StartedServer } from '../../servers/started-server.ts';
import type { StatusCounterOutput } from '../profile.ts';
import { showGlobal } from '../server-state.ts';

/** SHOW GLOBAL STATUS LIKE pattern, as name → number. A plugin's counters vanish when it is unloaded. */
export async function readCounters(server: StartedServer, like: string): Promise<Record<string, number>> {
  const values = await showGlobal(server, 'STATUS', like);
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Number(value)]));
}

/** What a counting plugin saw of an action: the evidence a check records. */
export interface CountedEvents {
  counter: string;
  /** Events counted for the action alone; null when the counter is not there (the plugin is not loaded). */
  counted: number | null;
  /** Events one read of the counters adds by itself (its own SHOW STATUS), taken out of `counted`. */
  perRead: number | null;
  /** How much each of the plugin's counters grew over the action plus one read. */
  grew: Record<string, number>;
}

/**
 * Counts the events a plugin is sent while `action` runs. Reading the counters is itself a statement the plugin
 * sees, so two reads with nothing between them measure that cost first; it is the same for the read after the
 * action, and is subtracted.
 */
export async function countDuring(
  server: StartedServer,
  output: StatusCounterOutput,
  action: () => Promise<unknown>,
): Promise<CountedEvents> {
  const first = await readCounters(server, output.countersLike);
  const before = await readCounters(server, output.countersLike);
  await action();
  const after = await readCounters(server, output.countersLike);
  const [a, b, c] = [first, before, after].map((values) => values[output.eventCounter]);
  const grew = Object.fromEntries(
    Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]),
  );
  if (a === undefined || b === undefined || c === undefined) {
    return { counter: output.eventCounter, counted: null, perRead: null, grew };
  }
  return { counter: output.eventCounter, counted: c - b - (b - a), perRead: b - a, grew };
}
