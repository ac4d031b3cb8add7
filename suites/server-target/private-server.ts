import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { StartedServer } from '../../src/servers/started-server.ts';

/**
 * A local server is private: loopback only, every account has the run password, no file access outside its dir, and
 * not OS root (docs/targets.md#servers-are-private).
 */
export async function expectPrivate(server: StartedServer): Promise<void> {
  const { port, password } = server.connection;
  expect(password).toMatch(/^Aa1-[\w-]{24}$/);
  const settings = (
    await server.query(
      'SELECT @@bind_address AS bind, @@local_infile AS localInfile, @@secure_file_priv AS filePriv, @@datadir AS datadir, @@pid_file AS pidFile',
    )
  ).rows[0] as Record<string, string>;
  const privateDir = path.dirname(path.resolve(settings.datadir ?? ''));
  expect(settings).toMatchObject({ bind: '127.0.0.1', localInfile: '0' });
  expect(path.resolve(settings.filePriv ?? '/')).toMatch(new RegExp(`^${privateDir}/`));
  // Outside secure_file_priv the server reads nothing, whatever its OS user may read.
  expect((await server.query("SELECT LOAD_FILE('/etc/passwd') AS f")).rows).toEqual([{ f: null }]);
  expect((await server.query(`SELECT LOAD_FILE('${privateDir}/my.cnf') AS f`)).rows).toEqual([{ f: null }]);

  // No account that can log in has an empty password (MariaDB's mariadb.sys is locked).
  const { rows } = await server.query(
    "SELECT User AS user, Host AS host FROM mysql.user WHERE authentication_string = ''",
  );
  for (const row of rows) {
    const create = Object.values(
      (await server.query(`SHOW CREATE USER '${row.user}'@'${row.host}'`)).rows[0] ?? {},
    );
    expect(String(create[0]), `${row.user}@${row.host}`).toMatch(/ACCOUNT LOCK/);
  }

  const serverPid = (
    await readFile(path.resolve(settings.datadir ?? '', settings.pidFile ?? ''), 'utf8')
  ).trim();
  const serverUser = (await execa('ps', ['-o', 'user=', '-p', serverPid])).stdout.trim();
  if (process.getuid?.() === 0) expect(serverUser).not.toBe('root');

  const client = existsSync('/usr/bin/mariadb') ? 'mariadb' : 'mysql';
  const login = (extra: string[], env: Record<string, string> = {}, as?: string) =>
    execa(
      as ? 'runuser' : client,
      [...(as ? ['-u', as, '--', client] : []), ...extra, '-uroot', '-e', 'SELECT 1'],
      {
        reject: false,
        all: true,
        env: { MYSQL_PWD: '', ...env },
        extendEnv: false,
      },
    );
  const tcp = ['-h127.0.0.1', `-P${port}`];
  const without = await login(tcp);
  expect(without.exitCode, without.all).not.toBe(0);
  expect(without.all).toMatch(/Access denied/);
  const withIt = await login(tcp, { MYSQL_PWD: password });
  expect(withIt.exitCode, withIt.all).toBe(0);
  if (process.getuid?.() === 0) {
    // Another local user gets neither a passwordless TCP login nor into the private socket's folder.
    const other = await login(tcp, {}, 'nobody');
    expect(other.exitCode, other.all).not.toBe(0);
    const socket = await login([`--socket=${privateDir}/mysqld.sock`], {}, 'nobody');
    expect(socket.exitCode, socket.all).not.toBe(0);
  }
}
