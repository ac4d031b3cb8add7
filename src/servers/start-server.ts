import type { Config } from '../config/env.ts';
import { startLocalServer } from './local-server.ts';
import type { StartedServer } from './started-server.ts';

export interface StartOptions {
  /** Extra [mysqld] options for the first start. */
  options?: Record<string, string | null>;
  startTimeoutMs?: number;
}

/** Starts the configured server target. Suites call this and never care which target it is. */
export function startServer(config: Config, start: StartOptions = {}): Promise<StartedServer> {
  return startLocalServer({
    mysqldPath: config.mysqldPath,
    searchPath: config.searchPath,
    pluginDir: config.pluginDir,
    ...start,
  });
}
