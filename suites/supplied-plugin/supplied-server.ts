import type { TestContext } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { DEFAULT_ACCOUNTS } from '../../src/config/measured-traffic.ts';
import { unavailableReason } from '../../src/plugins/availability.ts';
import { type LifecycleContext, lifecycleContext } from '../../src/plugins/lifecycle/index.ts';
import { type AccountSession, accountSession } from '../../src/servers/account-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import {
  dropTrafficAccounts,
  type TrafficConnections,
  trafficConnections,
} from '../../src/servers/traffic-accounts.ts';
import { benchAudit } from '../../test/support/bench-audit-profile.ts';
import { type SuppliedFolder, supplyTestPlugin } from '../../test/support/test-plugin.ts';

/** The local server BENCH_AUDIT is supplied to: started on the compiled library's folder, then its accounts. */
export interface SuppliedServer {
  start(): Promise<void>;
  /** In a test: skips with the reason the start gave; the server, its traffic's connections and the checks' context. */
  ready(context: TestContext): {
    server: StartedServer;
    connections: TrafficConnections;
    lifecycle: LifecycleContext;
  };
  stop(): Promise<void>;
}

export function suppliedServer(config: Environment, progress: (message: string) => void): SuppliedServer {
  let skipReason: string | null = null;
  let folder: SuppliedFolder | undefined;
  let server: StartedServer | undefined;
  let ready: ReturnType<SuppliedServer['ready']> | undefined;
  const sessions: AccountSession[] = [];
  return {
    async start() {
      if (config.target !== 'local') {
        skipReason = `AUDITBENCH_PLUGIN_DIR works with the local target only; this run's is ${config.target}`;
        return;
      }
      const supplied = await supplyTestPlugin();
      if ('problem' in supplied) {
        skipReason = supplied.problem;
        return;
      }
      folder = supplied;
      server = await startServer({ ...config, pluginDir: supplied.dir });
      skipReason = await unavailableReason(server, benchAudit);
      if (skipReason) return;
      const connections = await trafficConnections(server, DEFAULT_ACCOUNTS);
      sessions.push(accountSession(connections.checks), accountSession(connections.application));
      const [checks, application] = sessions as [AccountSession, AccountSession];
      ready = {
        server,
        connections,
        lifecycle: lifecycleContext(server, benchAudit, { checks, application }),
      };
      progress(
        `server ${server.info.version} on 127.0.0.1:${server.connection.port}, plugins from ${supplied.dir}`,
      );
    },
    ready(context) {
      if (skipReason) context.skip(skipReason);
      if (!ready) throw new Error('The server did not start; see the error of the first test');
      return ready;
    },
    async stop() {
      for (const session of sessions.splice(0)) await session.close();
      if (server) await dropTrafficAccounts(server).catch(() => {});
      await server?.stop();
      await folder?.remove();
    },
  };
}
