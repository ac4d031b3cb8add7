import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { startServer } from '../src/servers/start-server.ts';
import { expectPrivate } from './server-target/private-server.ts';

// These checks are about the local target, whatever AUDITBENCH_TARGET says.
const config = { ...loadEnvironment(), target: 'local' as const };

describe('server target', () => {
  test('starts, answers, restarts, survives SIGKILL, and leaves nothing behind', async () => {
    let datadirProbe = '';
    {
      await using server = await startServer(config);
      expect(server.connection.host).toBe('127.0.0.1');
      const { rows } = await server.query('SELECT 1 + 1 AS two');
      expect(rows).toEqual([{ two: 2 }]);
      await server.query('CREATE DATABASE probe');
      await server.restart();
      expect((await server.query("SHOW DATABASES LIKE 'probe'")).rows).toHaveLength(1);
      await server.killAndStart();
      expect((await server.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      const files = await server.listFiles();
      expect(files.some((f) => f.name.endsWith('ibdata1'))).toBe(true);
      datadirProbe = (await server.query('SELECT @@datadir AS d')).rows[0]?.d as string;
      expect(existsSync(datadirProbe)).toBe(true);
    }
    expect(existsSync(datadirProbe)).toBe(false);
  });

  test('a config the server rejects is reported quickly with the error-log line that says why', async () => {
    await using server = await startServer(config);
    await server.editConfig({ set: { audit_uninstall_plugin: '1' } });
    const started = Date.now();
    await expect(server.restart()).rejects.toThrow(/unknown variable 'audit_uninstall_plugin=1'/);
    expect(Date.now() - started).toBeLessThan(30_000);
    await server.editConfig({ unset: ['audit_uninstall_plugin'] });
    await server.restart();
    expect((await server.query('SELECT 1 AS one')).rows).toHaveLength(1);
  });

  test('is private: loopback only, every account has the run password, no file access outside its dir, not OS root', async () => {
    await using server = await startServer(config);
    await expectPrivate(server);
  });

  test('reading outside the datadir is refused', async () => {
    await using server = await startServer(config);
    await expect(server.readFile('../my.cnf')).rejects.toThrow(/outside the server's datadir/);
  });
});
