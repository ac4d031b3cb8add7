import { defineConfig, fromCnf } from 'auditbench';

// The run audit/compliance.test.ts checks (`test.override('runId', 'pci')`): server_audit with the option file ops/pci.cnf,
// measured on the traffic it is written for. `npx vitest run` measures it and runs the compliance tests against a server
// running it; `npx auditbench list` shows it resolved, starting no server.
export default defineConfig({
  runs: [
    {
      id: 'pci',
      plugin: 'server_audit',
      title: 'server_audit for cardholder data: administrators, logins, DDL and DCL',
      cnf: fromCnf('ops/pci.cnf'),
      // Only connections, DDL and DCL are logged: sysbench logs in as shop_app, and new connections and two DDL and two
      // DCL statements a second are added, so the plugin has something to log in both arms (an idle plugin fails).
      traffic: {
        accounts: { application: 'shop_app', checks: 'auditor' },
        added: { connectionsPerS: 10, ddlPerS: 2, dclPerS: 2 },
      },
    },
  ],
});
