import { defineConfig } from '../src/runs/define-config.ts';

// Where production keeps its audit log when not in a local file: server_audit sending to syslog, as the DISA STIG
// for MariaDB asks (server_audit_output_type=syslog; rsyslog forwards to the SIEM), and the general query log kept in
// its table (log_output=TABLE). A syslog run gets a receiver of its own, never the host's /dev/log (docs/plugins.md,
// "syslog: the run's own receiver"); the table is read from its CSV file in the datadir. Run it with
//   AUDITBENCH_CONFIG=examples/log-destinations.config.ts ./auditbench bench
// `./auditbench test` checks both without measuring (suites/log-destinations.suite.ts): the syslog run's lifecycle,
// completeness and its receiver paused for 5 s, and the table's completeness.
export default defineConfig({
  runs: [
    {
      id: 'payments-syslog',
      plugin: 'server_audit',
      title: 'server_audit to syslog (ident payments, local3.notice)',
      settings: {
        server_audit_output_type: 'syslog',
        server_audit_syslog_ident: 'payments',
        server_audit_syslog_facility: 'LOG_LOCAL3',
        server_audit_syslog_priority: 'LOG_NOTICE',
        server_audit_events: ['CONNECT', 'QUERY_DDL', 'QUERY_DCL', 'QUERY_DML'],
      },
    },
    {
      id: 'general-log-table',
      plugin: 'general_log',
      title: 'the general query log in mysql.general_log',
      settings: { log_output: 'TABLE' },
    },
  ],
});
