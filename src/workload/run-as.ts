import type { ConnectionOptions } from '../servers/started-server.ts';
import { realSysbench, type SysbenchRunner } from './sysbench-runner.ts';

/**
 * A runner that logs sysbench in as `connection`'s account (the traffic's application account) whatever connection
 * the measurement hands it, which is the server's admin one. Wrap it to add to the traffic; `inner` is the runner
 * that actually starts sysbench (the real binary by default).
 */
export function runnerAs(
  connection: ConnectionOptions,
  inner: SysbenchRunner = realSysbench,
): SysbenchRunner {
  return {
    prepare: (_admin, workload) => inner.prepare(connection, workload),
    run: (_admin, workload, opts) => inner.run(connection, workload, opts),
  };
}
