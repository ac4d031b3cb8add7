import { defineConfig } from '../../src/config/define-config.ts';

// The four kinds of run suites/traffic.test.ts measures: a configuration whose checks depend on the query-length
// limit, a CONNECT-only configuration under persistent connections (idle) and with new connections added, and a
// DBA's own sysbench script.
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
      id: 'connect-added',
      plugin: 'server_audit',
      title: 'server_audit, connections only, 20 new connections a second',
      settings: { server_audit_events: ['CONNECT'] },
      traffic: { added: { connectionsPerS: 20 } },
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
