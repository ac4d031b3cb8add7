import os from 'node:os';
import { expect } from 'vitest';
import type { Environment } from '../../src/config/env.ts';
import { containerRuntime, containersOf, labels } from '../../src/servers/docker-engine.ts';
import { canConnect } from '../../src/servers/sql-session.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';

// The container target's longer checks, one function each; suites/container-target.suite.ts declares them per image.

type ContainerConfig = Environment & { target: 'container' };

// Above the kernel's largest pid (2^22), so never a live process.
const deadPid = String(2 ** 22 + 1);

/**
 * Starts private and confined to its datadir, answers, restarts, survives SIGKILL, and leaves no container behind (a
 * dead run's leftover is swept). One container for all of it: each start costs 5–7 s.
 */
export async function startsAndLeavesNothing(config: ContainerConfig, image: string): Promise<void> {
  // What a run killed before its watchdog could act leaves behind; the next start removes it.
  const docker = (await containerRuntime()).container.dockerode;
  const leftover = await docker.createContainer({
    Image: image,
    Labels: { [labels.auditbench]: '1', [labels.run]: deadPid, [labels.host]: os.hostname() },
  });
  {
    const started = Date.now();
    await using server = await startServer(config, { image });
    console.log(`${image}: ${server.info.version} answered in ${Date.now() - started} ms`);
    expect(server.connection.host).toBe('127.0.0.1');
    expect(server.info.target).toBe('container');
    expect((await server.query("SELECT 'yes' AS answer")).rows).toEqual([{ answer: 'yes' }]);
    await expectPrivate(server);
    await expectConfinedFiles(server);
    await server.query('CREATE DATABASE probe');
    await timed(`${image}: restart`, () => server.restart());
    expect((await server.query("SHOW DATABASES LIKE 'probe'")).rows).toHaveLength(1);
    await timed(`${image}: killAndStart`, () => server.killAndStart());
    expect((await server.query("SHOW DATABASES LIKE 'probe'")).rows).toHaveLength(1);
    const files = await server.listFiles();
    const ibdata = files.find((f) => f.name === 'ibdata1');
    // device:inode, as the local target gives it: a mark follows a file through rotation by both (src/plugins/log-mark.ts).
    expect(ibdata?.fileId).toMatch(/^\d+:\d+$/);
    expect(ibdata?.sizeBytes).toBeGreaterThan(0);
    expect((await server.readFile('ibdata1')).length).toBe(ibdata?.sizeBytes);
    expect(await containersOf()).toHaveLength(1);
    await expect(leftover.inspect()).rejects.toThrow(/no such container/i);
  }
  expect(await containersOf()).toEqual([]);
}

/** editConfig applies at the next restart; a rejected option is reported quickly with its log line. */
export async function editsApply(config: ContainerConfig, image: string): Promise<void> {
  await using server = await startServer(config, { image, options: { max_connections: '77' } });
  const maxConnections = async () => Number((await server.query('SELECT @@max_connections AS n')).rows[0]?.n);
  expect(await maxConnections()).toBe(77);
  await server.editConfig({ set: { max_connections: '123' } });
  await server.restart();
  expect(await maxConnections()).toBe(123);

  await server.editConfig({ set: { audit_uninstall_plugin: '1' } });
  const started = Date.now();
  const refusal = await server.restart().then(
    () => new Error('restarted with an unknown option'),
    (error: Error) => error,
  );
  console.log(`${image}: refused in ${Date.now() - started} ms: ${refusal.message.split('\n', 1)[0]}`);
  expect(refusal.message).toMatch(/unknown variable 'audit_uninstall_plugin=1'/);
  expect(Date.now() - started).toBeLessThan(60_000);
  await server.editConfig({ unset: ['audit_uninstall_plugin'] });
  await server.restart();
  expect(await maxConnections()).toBe(123);
  expect(await server.errorLogTail(200)).toMatch(/ready for connections/);
}

/** Published on 127.0.0.1 only, root needs the run password, no file access, no empty-password accounts. */
async function expectPrivate(server: StartedServer): Promise<void> {
  const { port, password } = server.connection;
  expect(password).toMatch(/^Aa1-[\w-]{24}$/);
  const docker = (await containerRuntime()).container.dockerode;
  const [id] = await containersOf();
  const bindings = (await docker.getContainer(id ?? '').inspect()).NetworkSettings.Ports['3306/tcp'] ?? [];
  expect(bindings.map((b) => b.HostIp)).toEqual(['127.0.0.1']);
  expect(await canConnect({ ...server.connection, password: '' })).toBe(false);
  expect(await canConnect({ ...server.connection, password: 'wrong' })).toBe(false);
  const { rows } = await server.query(
    "SELECT User AS user, Host AS host FROM mysql.user WHERE authentication_string = '' AND Host = '%'",
  );
  expect(rows).toEqual([]);
  const settings = (await server.query('SELECT @@local_infile AS li, @@secure_file_priv AS sfp')).rows[0];
  expect(settings).toEqual({ li: '0', sfp: '/var/lib/mysql-files/' });
  expect((await server.query("SELECT LOAD_FILE('/etc/passwd') AS f")).rows).toEqual([{ f: null }]);
  expect(port).toBeGreaterThan(0);
}

/** Reads only inside the datadir, and finds plugin libraries; its CPUs can be pinned. */
async function expectConfinedFiles(server: StartedServer): Promise<void> {
  await expect(server.readFile('../../../etc/passwd')).rejects.toThrow(/outside the server's datadir/);
  await expect(server.listFiles('..')).rejects.toThrow(/outside the server's datadir/);
  expect(await server.pluginFileExists('no_such_plugin.so')).toBe(false);
  const soname = server.info.flavor === 'mariadb' ? 'server_audit.so' : 'adt_null.so';
  expect(await server.pluginFileExists(soname)).toBe(true);
  await server.pinCpus?.('0');
}

async function timed(what: string, action: () => Promise<void>): Promise<void> {
  const started = Date.now();
  await action();
  console.log(`${what} took ${Date.now() - started} ms`);
}
