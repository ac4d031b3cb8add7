import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { dockerAvailable } from '../src/servers/docker-engine.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { expectNoRestart, startedHere } from './external-target/started-here.ts';

const config = loadEnvironment();
describe('external target, pointed at a server this suite started', () => {
  const here = startedHere(config);
  const maxConnections = async (server: StartedServer) =>
    Number((await server.query('SELECT @@max_connections AS n')).rows[0]?.n);
  beforeAll(() => here.start());
  afterAll(() => here.stop());

  test('not said to be disposable: refused in one line before anything connects', async () => {
    const local = here.local();
    const connections = async () =>
      Number((await local.query("SHOW GLOBAL STATUS LIKE 'Connections'")).rows[0]?.Value);
    const before = await connections();
    const refused = startServer(
      loadEnvironment({ AUDITBENCH_TARGET: 'external', AUDITBENCH_DSN: here.dsn() }),
    );
    await expect(refused).rejects.toThrow(
      `AUDITBENCH_TARGET=external: auditbench did not start the server at 127.0.0.1:${local.connection.port}, and its runs install and uninstall plugins, set globals, load tables, rotate logs and restart it: set AUDITBENCH_DSN_DISPOSABLE=1 if it is a server you can spare, else use AUDITBENCH_TARGET=local or container`,
    );
    // The suite's own session stays open throughout, so any new connection would be the refused target's.
    expect(await connections()).toBe(before);
  });

  test('without a restart command: queries and reads files, refuses to restart with the reason', async () => {
    {
      await using server = await here.external(false);
      await expectNoRestart(server, here.local());
    }
    // Disposing the external target leaves the server running.
    expect((await here.local().query("SELECT 'up' AS state")).rows).toEqual([{ state: 'up' }]);
  });

  test('with a restart command: restart and SIGKILL keep data, edits apply, and are undone at the end', async () => {
    {
      await using server = await here.external(true);
      await server.query('CREATE DATABASE IF NOT EXISTS auditbench');
      await server.query('CREATE TABLE auditbench.probe (id INT PRIMARY KEY) ENGINE=InnoDB');
      await server.query('INSERT INTO auditbench.probe VALUES (1)');
      await server.editConfig({ set: { max_connections: '77' } });
      await server.restart();
      expect(await maxConnections(server)).toBe(77);
      await server.killAndStart();
      expect(await maxConnections(server)).toBe(77);
      expect((await server.query('SELECT id FROM auditbench.probe')).rows).toEqual([{ id: 1 }]);
      await server.query('DROP TABLE auditbench.probe');
    }
    // The external target restarted the server without its options when it was disposed.
    expect(await maxConnections(here.local())).toBe(151);
  });

  test('a bad DSN host is refused before anything connects', () => {
    expect(() => loadEnvironment({ AUDITBENCH_DSN: 'mysql://root@db.example.com:3306' })).toThrow(
      /servers listen on 127\.0\.0\.1 or in containers you started/,
    );
  });
});

describe('external target, pointed at a server in a container', () => {
  const image = 'auditbench/mariadb:10.11';

  test('files of a server that is not on this machine are refused; plugins are asked over SQL', async (context: TestContext) => {
    const unavailable = await dockerAvailable(image);
    if (unavailable) context.skip(unavailable);
    await using inContainer = await startServer({ ...config, target: 'container' }, { image });
    await using server = await startServer(
      loadEnvironment({
        AUDITBENCH_TARGET: 'external',
        AUDITBENCH_DSN: `mysql://root:${encodeURIComponent(inContainer.connection.password)}@127.0.0.1:${inContainer.connection.port}`,
        AUDITBENCH_DSN_DISPOSABLE: '1',
      }),
    );
    await expect(server.listFiles()).rejects.toThrow(/is not on this machine/);
    await expect(server.readFile('ibdata1')).rejects.toThrow(/is not on this machine/);
    expect(await server.errorLogTail()).toMatch(/cannot be read here/);
    expect(await server.pluginFileExists('server_audit.so')).toBe(true);
    expect(await server.pluginFileExists('no_such_plugin.so')).toBe(false);
  });
});
