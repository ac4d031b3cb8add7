import { defineConfig } from '../../src/runs/define-config.ts';

// The four kinds of run suites/traffic.suite.ts measures: a configuration whose checks depend on the query-length
// limit, a CONNECT-only configuration under persistent connections (idle), a DBA's own sysbench script, and a log
// the plugin cannot create (silent). (CONNECT with new connections added, from a production option file, is
// suites/pack-install.suite.ts's `pci` run.)
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
    {
      id: 'log-unwritable',
      plugin: 'server_audit',
      title: 'server_audit, its log in a folder that does not exist',
      // Relative to the datadir, set while logging is off: the plugin only finds out when it is switched on.
      settings: { server_audit_file_path: 'auditbench-no-such-dir/server_audit.log' },
    },
  ],
});
