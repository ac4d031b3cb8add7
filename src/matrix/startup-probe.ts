import { type Clock, realClock } from '../machine/clock.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';

export interface StartupProbe {
  outcome: 'starts' | 'crash-loop';
  /** The server's error-log lines that explain a failed start. */
  reason: string;
  elapsedMs: number;
}

/**
 * Puts the plugin in my.cnf as FORCE (the server must not start without it) and restarts: the seed's
 * "mysqld restarts forever" case, caught as a failed start with the error-log tail instead of a hang. The
 * server is put back as it was either way.
 */
export async function probeStartupLoad(
  server: StartedServer,
  profile: PluginProfile,
  clock: Clock = realClock,
): Promise<StartupProbe> {
  if (!profile.soname)
    throw new Error(`${profile.title} is built in: there is no library to load at startup`);
  const option = profile.name.toLowerCase();
  await server.editConfig({ set: { plugin_load_add: profile.soname, [option]: 'FORCE' } });
  const started = clock.nowMs();
  let probe: StartupProbe;
  try {
    await server.restart();
    probe = { outcome: 'starts', reason: '', elapsedMs: clock.nowMs() - started };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    probe = { outcome: 'crash-loop', reason: message, elapsedMs: clock.nowMs() - started };
  }
  await server.editConfig({ unset: ['plugin_load_add', option] });
  await server.restart();
  return probe;
}
