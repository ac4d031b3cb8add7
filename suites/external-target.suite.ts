import path from 'node:path';
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { dockerAvailable } from '../src/servers/docker-engine.ts';
import { NeedsRestartCommandError } from '../src/servers/external-server.ts';
import { findServerBinary } from '../src/servers/server-binary.ts';
import { canConnect } from '../src/servers/sql-session.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';

const config = loadEnvironment();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A restart command for a server we started ourselves: stop it (SIGTERM, or SIGKILL when asked), wait until the
 * process is gone (a zombie counts as gone), and relaunch it with its own my.cnf plus auditbench's options.
 */
function restartCommand(binary: string, dir: string): string {
  return `
    pid=$(cat '${dir}/mysqld.pid')
    if [ "$1" = kill ]; then kill -KILL "$pid"; else kill -TERM "$pid"; fi
    while kill -0 "$pid" 2>/dev/null && ! grep -q '^[^)]*) Z' "/proc/$pid/stat" 2>/dev/null; do sleep 0.2; done
    [ -f '${dir}/base.cnf' ] || cp '${dir}/my.cnf' '${dir}/base.cnf'
    cat '${dir}/base.cnf' "$2" > '${dir}/my.cnf'
    setsid '${binary}' --defaults-file='${dir}/my.cnf' </dev/null >/dev/null 2>&1 &`;
}

describe('external target, pointed at a server this suite started', () => {
  let local: StartedServer | undefined;
  let dsn = '';
  let restartCmd = '';
  // The suite started this server itself, so it says the server is disposable.
  const external = (withRestart: boolean) =>
    startServer(
      loadEnvironment({
        AUDITBENCH_TARGET: 'external',
        AUDITBENCH_DSN: dsn,
        AUDITBENCH_DSN_DISPOSABLE: '1',
        ...(withRestart ? { AUDITBENCH_RESTART_CMD: restartCmd } : {}),
      }),
    );
  const maxConnections = async (server: StartedServer) =>
    Number((await server.query('SELECT @@max_connections AS n')).rows[0]?.n);

  beforeAll(async () => {
    local = await startServer({ ...config, target: 'local' });
    const { rows } = await local.query('SELECT @@datadir AS datadir');
    const dir = path.dirname(path.resolve(String(rows[0]?.datadir)));
    const binary = await findServerBinary(config.mysqldPath, config.searchPath);
    dsn = `mysql://root:${encodeURIComponent(local.connection.password)}@127.0.0.1:${local.connection.port}`;
    restartCmd = restartCommand(binary.path, dir);
  });

  afterAll(async () => {
    if (!local) return;
    // The restart command relaunched the server outside the local target's reach: shut it down over SQL first.
    await local.query('SHUTDOWN').catch(() => {});
    for (let i = 0; i < 100 && (await canConnect(local.connection)); i++) await sleep(200);
    await local.stop();
  });

  test('not said to be disposable: refused in one line before anything connects', async () => {
    const connections = async () =>
      Number((await local?.query("SHOW GLOBAL STATUS LIKE 'Connections'"))?.rows[0]?.Value);
    const before = await connections();
    const refused = startServer(loadEnvironment({ AUDITBENCH_TARGET: 'external', AUDITBENCH_DSN: dsn }));
    await expect(refused).rejects.toThrow(
      `AUDITBENCH_TARGET=external: auditbench did not start the server at 127.0.0.1:${local?.connection.port}, and its runs install and uninstall plugins, set globals, load tables, rotate logs and restart it: set AUDITBENCH_DSN_DISPOSABLE=1 if it is a server you can spare, else use AUDITBENCH_TARGET=local or container`,
    );
    // The suite's own session stays open throughout, so any new connection would be the refused target's.
    expect(await connections()).toBe(before);
  });

  test('without a restart command: queries and reads files, refuses to restart with the reason', async () => {
    {
      await using server = await external(false);
      expect(server.info.target).toBe('external');
      expect(server.info.flavor).toBe(local?.info.flavor);
      expect(server.connection).toEqual({
        host: '127.0.0.1',
        port: local?.connection.port,
        user: 'root',
        password: local?.connection.password,
      });
      for (const attempt of [
        server.restart(),
        server.killAndStart(),
        server.editConfig({ set: { x: '1' } }),
      ]) {
        await expect(attempt).rejects.toThrow(NeedsRestartCommandError);
      }
      await expect(server.restart()).rejects.toThrow(/needs a restart command: set AUDITBENCH_RESTART_CMD/);
      expect((await server.listFiles()).some((f) => f.name === 'ibdata1')).toBe(true);
      await expect(server.readFile('../my.cnf')).rejects.toThrow(/outside the server's datadir/);
      expect(await server.errorLogTail(400)).toMatch(/ready for connections/);
      expect(await server.pluginFileExists('no_such_plugin.so')).toBe(false);
    }
    // Disposing the external target leaves the server running.
    expect((await local?.query("SELECT 'up' AS state"))?.rows).toEqual([{ state: 'up' }]);
  });

  test('with a restart command: restart and SIGKILL keep data, edits apply, and are undone at the end', async () => {
    {
      await using server = await external(true);
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
    expect(await maxConnections(local as StartedServer)).toBe(151);
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
