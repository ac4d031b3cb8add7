import { defineConfig, fromCnf } from '../src/runs/define-config.ts';

// What the audit plugin adds on the server production runs, not only on a stock one: the same server_audit (the
// profile's own settings, every event) on a stock server, under the thread pool, with a binary log synced at every
// commit, and with performance_schema on. Each run's figure is the plugin's added share on that server; the summary
// ranks them side by side. Run it with
//   AUDITBENCH_CONFIG=examples/server-options.config.ts ./auditbench bench
// The files say what each setting stands for (examples/server-options/); `./auditbench test` runs every file's
// lifecycle there (suites/beside-production.suite.ts), without measuring.
export default defineConfig({
  runs: [
    { id: 'stock', plugin: 'server_audit', title: 'server_audit on a stock server' },
    {
      id: 'thread-pool',
      plugin: 'server_audit',
      title: 'server_audit under the thread pool',
      cnf: fromCnf('server-options/thread-pool.cnf'),
    },
    {
      id: 'binlog-sync',
      plugin: 'server_audit',
      title: 'server_audit beside a binary log synced at every commit',
      cnf: fromCnf('server-options/binlog-sync.cnf'),
    },
    {
      id: 'performance-schema',
      plugin: 'server_audit',
      title: 'server_audit with performance_schema on',
      cnf: fromCnf('server-options/performance-schema.cnf'),
    },
  ],
});
