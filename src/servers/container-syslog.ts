import type { StartedTestContainer } from 'testcontainers';
import {
  DRAIN_TAG,
  drainThrough,
  type ReceiverPaths,
  receiverConfig,
  SYSLOG_FILE,
} from './syslog-receiver.ts';

// A container's own syslog receiver: auditbench's images (scripts/docker/build-images.sh) carry Debian's rsyslog, and
// their entrypoint starts rsyslogd as root before the server when the harness has put a configuration at
// CONTAINER_RECEIVER.config. The container's /dev is its own, so no namespace is needed: what the server sends to
// syslog reaches this rsyslogd or nothing, never the host. The records land in the datadir, where the log readers look.

/** Where a container's receiver keeps its files, inside the container; the records in the images' datadir. */
export const CONTAINER_RECEIVER: ReceiverPaths = {
  dir: '/run/auditbench-syslog',
  config: '/etc/auditbench/rsyslog.conf',
  socket: '/dev/log',
  work: '/run/auditbench-syslog/work',
  pidFile: '/run/auditbench-syslog/rsyslogd.pid',
  internal: '/run/auditbench-syslog/rsyslogd.log',
  output: `/var/lib/mysql/${SYSLOG_FILE}`,
  drain: '/run/auditbench-syslog/drain.log',
};

/** The receiver's configuration, the local receiver's with the container's paths (`receiverConfig`). */
export const containerReceiverConfig = (): string => receiverConfig(CONTAINER_RECEIVER);

/** The label build-images.sh gives an image whose entrypoint starts the receiver: its value is rsyslog's version. */
export const RECEIVER_LABEL = 'org.auditbench.syslog-receiver';

/**
 * Why a syslog run has no receiver in this image, with what to do; null when it has one. `labels` are the image's
 * (null: the image is not on the engine, which the container target reports on its own).
 */
export function containerReceiverProblem(
  image: string,
  labels: Record<string, string> | null,
): string | null {
  if (labels === null || labels[RECEIVER_LABEL]) return null;
  if (!image.startsWith('auditbench/')) {
    return `the container target's receiver is an rsyslogd inside auditbench's own images, and ${image} is not one: build auditbench/mariadb:<version> with scripts/docker/build-images.sh, or measure with AUDITBENCH_TARGET=local`;
  }
  return `${image} was built without a syslog receiver (before 2026-12-08): rebuild it with scripts/docker/build-images.sh --rebuild ${image} (as root), or measure with AUDITBENCH_TARGET=local`;
}

/** Whether the container's receiver is up: its socket at /dev/log. */
export async function containerReceiverUp(container: StartedTestContainer): Promise<boolean> {
  return (await container.exec(['test', '-S', CONTAINER_RECEIVER.socket])).exitCode === 0;
}

/** LocalSyslog.drain's promise for a container's receiver: logger and the reads run inside the container. */
export function drainContainerSyslog(container: StartedTestContainer): Promise<void> {
  const paths = CONTAINER_RECEIVER;
  const read = async (argv: string[]) => {
    const result = await container.exec(argv);
    return result.exitCode === 0 ? result.output : '';
  };
  return drainThrough(
    {
      async send(token) {
        const sent = await container.exec(['logger', '-u', paths.socket, '-d', '-t', DRAIN_TAG, token]);
        if (sent.exitCode !== 0) throw new Error(`logger in the container failed: ${sent.output.trim()}`);
      },
      drained: () => read(['cat', paths.drain]),
      outputSize: async () => Number((await read(['stat', '-c', '%s', paths.output])).trim()) || 0,
    },
    paths.socket,
  );
}
