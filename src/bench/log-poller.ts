import { LogGrowth } from '../plugins/log-files.ts';
import { listLogFiles } from '../plugins/log-reader.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';

// Rotation renames files; listing every second keeps each file in view long before it can be deleted.
const pollMs = 1_000;

/** Counts the bytes a plugin's log grows by while a run is in progress, across rotations. */
export async function watchLogGrowth(server: StartedServer, profile: PluginProfile | null) {
  if (profile === null) return { stop: async (): Promise<number> => 0 };
  const growth = new LogGrowth(await listLogFiles(server, profile));
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => growth.observe(await listLogFiles(server, profile))).catch(() => {});
  }, pollMs);
  return {
    async stop(): Promise<number> {
      clearInterval(timer);
      await pending;
      growth.observe(await listLogFiles(server, profile));
      return growth.bytesWritten;
    },
  };
}
