import { expect, test } from 'vitest';
import { createFakeServer } from '../../test/support/fake-server.ts';
import {
  dropAccountsAndStop,
  dropTrafficAccounts,
  liveConnection,
  trafficConnections,
} from './traffic-accounts.ts';

const accounts = { application: 'auditbench_app', checks: 'auditbench_checks' };

test('each account is created once per server and granted only what its role needs', async () => {
  const server = createFakeServer({});
  const first = await trafficConnections(server, accounts);
  const again = await trafficConnections(server, accounts);
  expect(again).toEqual(first);
  expect(first.application).toMatchObject({ user: 'auditbench_app', host: server.connection.host });
  expect(first.application.password).not.toBe(first.checks.password);
  const sql = server.lines().filter((l) => l.startsWith('SQL '));
  expect(sql.filter((l) => l.includes('CREATE USER') && !l.includes('GRANT'))).toHaveLength(2);
  expect(sql.filter((l) => l.startsWith('SQL GRANT') && l.includes("'auditbench_app'"))).toEqual([
    "SQL GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX ON `auditbench`.* TO 'auditbench_app'@'%'",
    "SQL GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX ON `auditbench`.* TO 'auditbench_app'@'localhost'",
  ]);
  expect(sql.filter((l) => l.startsWith('SQL GRANT') && l.includes("'auditbench_checks'@'%'"))).toEqual([
    "SQL GRANT SELECT ON `auditbench`.* TO 'auditbench_checks'@'%'",
    "SQL GRANT CREATE USER ON *.* TO 'auditbench_checks'@'%'",
  ]);
  expect(await dropTrafficAccounts(server)).toEqual(['auditbench_app', 'auditbench_checks']);
});

test("'root' asks for the server's own connection and creates nothing", async () => {
  const server = createFakeServer({});
  const connections = await trafficConnections(server, { application: 'root', checks: 'auditbench_checks' });
  expect(connections.application).toEqual(server.connection);
  expect(server.lines().some((l) => l.includes("'root'"))).toBe(false);
});

test('an account that already exists (an external box) is refused in one line, not taken over', async () => {
  const server = createFakeServer({
    rules: [
      {
        match: /^CREATE USER 'app'/,
        reply: { error: { errno: 1396, message: "Operation CREATE USER failed for 'app'@'%'" } },
      },
    ],
  });
  await expect(
    trafficConnections(server, { application: 'app', checks: 'auditbench_checks' }),
  ).rejects.toThrow(
    /^traffic\.accounts: account 'app' already exists on the server at .*name one that does not exist \(or drop it\)$/,
  );
});

test("an account's connection follows the server to its new port (a container's restart maps it anew)", () => {
  const server = { connection: { host: '127.0.0.1', port: 32770, user: 'root', password: 'x' } };
  const app = liveConnection(server, 'auditbench_app', 'secret');
  expect({ ...app }).toEqual({ user: 'auditbench_app', password: 'secret', host: '127.0.0.1', port: 32770 });
  server.connection = { ...server.connection, port: 32773 };
  expect({ ...app }.port).toBe(32773);
  expect(app.user).toBe('auditbench_app');
});

test('a server that cannot drop the accounts says so and is still stopped', async () => {
  const server = createFakeServer({
    rules: [{ match: /^DROP USER/, reply: { error: { errno: 1290, message: 'read-only' } } }],
  });
  await trafficConnections(server, accounts);
  const logged: string[] = [];
  await dropAccountsAndStop(server, (line) => logged.push(line));
  expect(logged).toEqual([expect.stringMatching(/^could not drop the traffic's accounts: .*read-only/)]);
  await expect(server.query('SELECT 1')).rejects.toThrow(/not running/);
  await dropAccountsAndStop(undefined, (line) => logged.push(line));
  expect(logged).toHaveLength(1);
});
