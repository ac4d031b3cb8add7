import { defineConfig } from './src/config/define-config.ts';

// The stock runs: every built-in profile with its own settings. A plugin this server lacks (McAfee, Percona, MySQL
// Enterprise) is skipped with the reason; see README, "Configuration", to measure your own settings.
export default defineConfig({
  runs: [
    { plugin: 'server_audit' },
    { plugin: 'sql_error_log' },
    { plugin: 'general_log' },
    { plugin: 'null_audit' },
    { plugin: 'mcafee_audit' },
    { plugin: 'percona_audit_log' },
    { plugin: 'mysql_enterprise_audit' },
  ],
});
