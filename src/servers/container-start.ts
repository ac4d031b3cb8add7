import path from 'node:path';
import type { Readable } from 'node:stream';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { CONTAINER_RECEIVER, containerReceiverConfig } from './container-syslog.ts';
import { ownerLabels } from './docker-engine.ts';
import { redact } from './server-account.ts';
import { tailLines } from './tail.ts';

// The images read conf.d (the official images' contract); zz- sorts it after anything else there.
export const cnfPath = '/etc/mysql/conf.d/zz-auditbench.cnf';
const pluginDir = '/usr/lib/mysql/plugin';
/** secure_file_priv in every container: the official MySQL images' folder, made (empty) where an image lacks it. */
export const secureFilesDir = '/var/lib/mysql-files';
// The server's "Version: '…'  socket: '…'  port: 3306" line (MariaDB prints it on the line after "ready for
// connections"); MariaDB's entrypoint first runs a socket-only server that says "port: 0".
const readyLine = /Version: '.*socket: .*\bport: 3306\b/;
export const silentEntrypoint =
  '(empty: the entrypoint stopped before the server ran; it hides why, e.g. an option the server rejects)';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * testcontainers publishes ports on every interface and has no option for the address; the server must be reachable
 * from this machine only. This hook is testcontainers' own extension point.
 */
class LoopbackContainer extends GenericContainer {
  protected override async beforeContainerCreated(): Promise<void> {
    this.hostConfig.PortBindings = { '3306/tcp': [{ HostIp: '127.0.0.1', HostPort: '0' }] };
  }
}

/** Keeps the end of a log stream, for the message when the first start fails and the container is gone. */
function captureTail(stream: Readable, keepChars = 64_000): { text: () => string; ended: Promise<void> } {
  let text = '';
  stream.on('data', (chunk: Buffer | string) => {
    text = (text + chunk.toString()).slice(-keepChars);
  });
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
  return { text: () => text, ended };
}

/** testcontainers' wait-strategy wording, said in the server's terms. */
function startFailure(error: unknown, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('Log stream ended')) return 'exited before it was ready';
  if (/not received after \d+ms/.test(message))
    return `was not ready within ${Math.round(timeoutMs / 1000)} s`;
  return `did not start: ${message}`;
}

/**
 * Creates and starts the container with testcontainers: the run's root password, port 3306 on loopback, owner
 * labels, auditbench's option file, and a wait for the server's ready line. A start that fails rejects with
 * the container log; testcontainers has removed the container by then.
 */
export async function firstStart(opts: {
  image: string;
  /** auditbench's option file, as text. */
  cnf: string;
  rootPassword: string;
  timeoutMs: number;
  pluginFiles?: string[] | undefined;
}): Promise<StartedTestContainer> {
  const { image, cnf, rootPassword, timeoutMs, pluginFiles = [] } = opts;
  // The official mariadb and mysql images and auditbench's Debian-built ones all keep plugins here.
  const copies = pluginFiles.map((source) => ({
    source,
    target: `${pluginDir}/${path.basename(source)}`,
    mode: 0o644,
  }));
  let log: ReturnType<typeof captureTail> | undefined;
  try {
    return await new LoopbackContainer(image)
      // The official images' and auditbench's entrypoints read these; the engine keeps them off every command line.
      .withEnvironment({ MARIADB_ROOT_PASSWORD: rootPassword, MYSQL_ROOT_PASSWORD: rootPassword })
      .withExposedPorts(3306)
      .withLabels(ownerLabels())
      .withCopyContentToContainer([
        { content: cnf, target: cnfPath, mode: 0o644 },
        { content: '', target: `${secureFilesDir}/.auditbench`, mode: 0o644 },
        // auditbench's images start rsyslogd with it before the server (container-syslog.ts); others ignore it.
        { content: containerReceiverConfig(), target: CONTAINER_RECEIVER.config, mode: 0o644 },
      ])
      .withCopyFilesToContainer(copies)
      .withWaitStrategy(Wait.forLogMessage(readyLine))
      .withStartupTimeout(timeoutMs)
      .withLogConsumer((stream) => {
        log = captureTail(stream);
      })
      .start();
  } catch (error) {
    // testcontainers removes a container that never got ready, so its log is only what we captured.
    await Promise.race([log?.ended, sleep(1_000)]);
    const tail = tailLines(log?.text() ?? '', 25) || silentEntrypoint;
    // testcontainers' error can quote the container's create options, environment included.
    throw new Error(
      redact(`Server in container ${image} ${startFailure(error, timeoutMs)}. Container log tail:\n${tail}`, [
        rootPassword,
      ]),
    );
  }
}
