import type { Environment } from '../config/env.ts';
import { startContainerServer } from './container-server.ts';
import { startExternalServer } from './external-server.ts';
import { startLocalServer } from './local-server.ts';
import type { StartedServer } from './started-server.ts';

export interface StartOptions {
  /** Extra [mysqld] options for the first start. */
  options?: Record<string, string | null>;
  startTimeoutMs?: number;
  /** Container target: the image to run; the first of AUDITBENCH_IMAGES when absent. */
  image?: string;
  /** Container target: host plugin libraries copied into the server's plugin directory. */
  pluginFiles?: string[];
}

/** The slice of the configuration that says which server to start and how: what startServer reads, nothing more. */
export type ServerTarget = Pick<
  Environment,
  'target' | 'mysqldPath' | 'searchPath' | 'pluginDir' | 'images' | 'dsn' | 'restartCmd' | 'dsnDisposable'
>;

/** Starts the configured server target. Suites call this and never care which target it is. */
export async function startServer(config: ServerTarget, start: StartOptions = {}): Promise<StartedServer> {
  const { image, pluginFiles, ...common } = start;
  if (config.pluginDir && config.target !== 'local') {
    throw new Error(
      `AUDITBENCH_PLUGIN_DIR works with the local target only; got it with AUDITBENCH_TARGET=${config.target}: unset one of them`,
    );
  }
  switch (config.target) {
    case 'local':
      return startLocalServer({
        mysqldPath: config.mysqldPath,
        searchPath: config.searchPath,
        pluginDir: config.pluginDir,
        ...common,
      });
    case 'container':
      return startContainerServer({ image: image ?? config.images[0], pluginFiles, ...common });
    case 'external':
      if (!config.dsn) throw new Error('AUDITBENCH_TARGET=external needs AUDITBENCH_DSN; got none');
      return startExternalServer({
        dsn: config.dsn,
        restartCmd: config.restartCmd,
        disposable: config.dsnDisposable,
        ...common,
      });
  }
}
