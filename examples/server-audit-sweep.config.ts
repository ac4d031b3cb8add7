import { defineConfig, fromCnf } from '../src/runs/define-config.ts';

// Which server_audit configuration can we afford? Three event selections side by side on one server; the summary
// ranks them by overhead and log bytes per transaction. Run it with
//   AUDITBENCH_CONFIG=examples/server-audit-sweep.config.ts ./auditbench bench
export default defineConfig({
  runs: [
    // Every event, at two concurrencies: one measurement (and interval) each, on the same server and tables, then an
    // open-loop point at 16 threads (a sweep's default: docs/concurrency.md). Its 4-thread point is the workload's
    // own, so its figure keeps the plain id and ranks beside the two selections below. Add 1 (a single client) to see
    // the cost per statement without contention; `./auditbench test` runs this file and leaves it at two.
    {
      id: 'server_audit-all',
      plugin: 'server_audit',
      title: 'server_audit, every event',
      threads: [4, 16],
    },
    {
      id: 'server_audit-ddl-dcl',
      plugin: 'server_audit',
      title: 'server_audit, DDL and DCL only',
      settings: { server_audit_events: ['QUERY_DDL', 'QUERY_DCL'] },
      // OLTP has no DDL or DCL: without these the plugin would log nothing of the traffic (an idle plugin).
      traffic: { added: { ddlPerS: 2, dclPerS: 2 } },
    },
    {
      id: 'server_audit-connect',
      plugin: 'server_audit',
      title: 'server_audit, connections only (from ops/audit.cnf)',
      cnf: fromCnf('ops/audit.cnf'),
      // sysbench keeps its connections open: new ones are what a CONNECT-only configuration logs.
      traffic: { added: { connectionsPerS: 10 } },
    },
  ],
});
