import path from 'node:path';
import { expect } from 'vitest';
import { type Environment, loadEnvironment } from '../../src/config/env.ts';
import { NeedsRestartCommandError } from '../../src/servers/external-server.ts';
import { findServerBinary } from '../../src/servers/server-binary.ts';
import { canConnect } from '../../src/servers/sql-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';

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

/** A local server this suite starts, and the external target pointed at it by a DSN, with or without a restart command. */
export interface StartedHere {
  start(): Promise<void>;
  local(): StartedServer;
  dsn(): string;
  /** The suite started the server itself, so it says the server is disposable. */
  external(withRestart: boolean): Promise<StartedServer>;
  stop(): Promise<void>;
}

export function startedHere(config: Environment): StartedHere {
  let local: StartedServer | undefined;
  let dsn = '';
  let restartCmd = '';
  const started = () => {
    if (!local) throw new Error('The local server did not start; see the hook error');
    return local;
  };
  return {
    async start() {
      local = await startServer({ ...config, target: 'local' });
      const { rows } = await local.query('SELECT @@datadir AS datadir');
      const dir = path.dirname(path.resolve(String(rows[0]?.datadir)));
      const binary = await findServerBinary(config.mysqldPath, config.searchPath);
      dsn = `mysql://root:${encodeURIComponent(local.connection.password)}@127.0.0.1:${local.connection.port}`;
      restartCmd = restartCommand(binary.path, dir);
    },
    local: started,
    dsn: () => dsn,
    external: (withRestart) =>
      startServer(
        loadEnvironment({
          AUDITBENCH_TARGET: 'external',
          AUDITBENCH_DSN: dsn,
          AUDITBENCH_DSN_DISPOSABLE: '1',
          ...(withRestart ? { AUDITBENCH_RESTART_CMD: restartCmd } : {}),
        }),
      ),
    async stop() {
      if (!local) return;
      // The restart command relaunched the server outside the local target's reach: shut it down over SQL first.
      await local.query('SHUTDOWN').catch(() => {});
      for (let i = 0; i < 100 && (await canConnect(local.connection)); i++) await sleep(200);
      await local.stop();
    },
  };
}

/** Without a restart command the external target queries and reads files, and refuses to restart with the reason. */
export async function expectNoRestart(server: StartedServer, local: StartedServer): Promise<void> {
  expect(server.info.target).toBe('external');
  expect(server.info.flavor).toBe(local.info.flavor);
  expect(server.connection).toEqual({
    host: '127.0.0.1',
    port: local.connection.port,
    user: 'root',
    password: local.connection.password,
  });
  for (const attempt of [server.restart(), server.killAndStart(), server.editConfig({ set: { x: '1' } })]) {
    await expect(attempt).rejects.toThrow(NeedsRestartCommandError);
  }
  await expect(server.restart()).rejects.toThrow(/needs a restart command: set AUDITBENCH_RESTART_CMD/);
  expect((await server.listFiles()).some((f) => f.name === 'ibdata1')).toBe(true);
  await expect(server.readFile('../my.cnf')).rejects.toThrow(/outside the server's datadir/);
  expect(await server.errorLogTail(400)).toMatch(/ready for connections/);
  expect(await server.pluginFileExists('no_such_plugin.so')).toBe(false);
}
