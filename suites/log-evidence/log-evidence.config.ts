import { defineConfig } from '../../src/runs/define-config.ts';

// suites/log-evidence.suite.ts: server_audit as shipped (every event class), read through a DBA's test API.
export default defineConfig({
  runs: [{ id: 'everything', plugin: 'server_audit', title: 'server_audit, every event class' }],
});
