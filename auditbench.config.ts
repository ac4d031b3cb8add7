import { defineConfig } from './src/runs/define-config.ts';

// The stock runs: every built-in profile with its own settings. A plugin this server lacks (McAfee, Percona, MySQL
// Enterprise) is skipped with the reason; see README, "Configuration", to measure your own settings.
export default defineConfig({
  runs: [
    { plugin: 'server_audit' },
    // SQL_ERROR_LOG logs failed statements only, and OLTP has none: failed logins (error 1045) give it its events.
    { plugin: 'sql_error_log', traffic: { added: { failedLoginsPerS: 5 } } },
    { plugin: 'general_log' },
    { plugin: 'null_audit' },
    { plugin: 'mcafee_audit' },
    { plugin: 'percona_audit_log' },
    { plugin: 'mysql_enterprise_audit' },
  ],
  // Policy for every run that sets none of its own (docs/configuration.md, "Policy lives in the file"): the defaults, spelt out.
  inconclusive: 'fail',
  idle: 'fail',
  interference: 'warn',
});
