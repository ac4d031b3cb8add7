import { defineConfig } from '../../src/runs/define-config.ts';

// The three kinds of run suites/traffic.suite.ts measures: a configuration whose checks depend on the query-length
// limit, a CONNECT-only configuration under persistent connections (idle), and a DBA's own sysbench script. (CONNECT
// only with new connections added is suites/beside-production.suite.ts's production run.)
export default defineConfig({
  runs: [
    {
      id: 'query-limit',
      plugin: 'server_audit',
      title: 'server_audit, statements cut at 100 bytes',
      settings: { server_audit_query_log_limit: 100 },
    },
    {
      id: 'connect-idle',
      plugin: 'server_audit',
      title: 'server_audit, connections only, persistent connections',
      settings: { server_audit_events: ['CONNECT'] },
    },
    {
      id: 'kv-script',
      plugin: 'server_audit',
      title: "server_audit, statements, a DBA's key-value script",
      settings: { server_audit_events: ['QUERY'] },
      traffic: { script: 'kv.lua', preparedStatements: false },
    },
  ],
});
