import { defineConfig } from '../../src/runs/define-config.ts';

// suites/traffic-accounts.suite.ts: one server_audit configuration logging everyone (whose log shows which account sent
// what), one auditing only the application's account (measured), one auditing an account the traffic never uses.
export default defineConfig({
  runs: [
    { id: 'everyone', plugin: 'server_audit', title: 'server_audit, every account' },
    {
      id: 'application-only',
      plugin: 'server_audit',
      title: 'server_audit, the application account only',
      settings: { server_audit_incl_users: 'auditbench_app' },
    },
    {
      id: 'reporting-only',
      plugin: 'server_audit',
      title: 'server_audit, an account the traffic does not use',
      settings: { server_audit_incl_users: 'reporting' },
    },
  ],
});
