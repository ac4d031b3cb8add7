import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { type ContainerRuntimeClient, getContainerRuntimeClient } from 'testcontainers';
import { applyContainerRuntimeDefaults } from '../config/env.ts';
import { demuxDockerLog } from './docker-log.ts';
import { isAlive } from './proc-table.ts';
import { tailLines } from './tail.ts';

/** Every container the harness starts carries these; the run label names the owning process. */
export const labels = {
  auditbench: 'org.auditbench',
  run: 'org.auditbench.run',
  host: 'org.auditbench.host',
};

const getDocker = 'run scripts/docker/ensure-docker.sh as root on Debian, or start Docker yourself';

/** The container engine, with testcontainers' environment defaults in place before it first looks. */
export async function containerRuntime(): Promise<ContainerRuntimeClient> {
  applyContainerRuntimeDefaults();
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`No Docker engine answers (${why}): ${getDocker}`, { cause: error });
  }
}

/** Why container servers cannot run here, or null when they can; suites skip with this reason. */
export async function dockerAvailable(image?: string): Promise<string | null> {
  let client: ContainerRuntimeClient;
  try {
    client = await containerRuntime();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (image && !(await hasImage(client, image))) return missingImageAdvice(image);
  return null;
}

export async function hasImage(client: ContainerRuntimeClient, image: string): Promise<boolean> {
  return client.container.dockerode
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

export function missingImageAdvice(image: string): string {
  return image.startsWith('auditbench/')
    ? `Image '${image}' is not on this Docker engine: build it with scripts/docker/build-images.sh ${image} (as root)`
    : `Image '${image}' is not on this Docker engine and could not be pulled: pull or build it first`;
}

/** Labels of a container owned by this process, so a later run can tell whether its owner is gone. */
export function ownerLabels(): Record<string, string> {
  return { [labels.auditbench]: '1', [labels.run]: String(process.pid), [labels.host]: os.hostname() };
}

/** Ids of containers whose owner ran on `host` and is gone; a live run's, or another host's, are not stale. */
export function staleContainers(
  found: { Id: string; Labels: Record<string, string> }[],
  host: string,
  alive: (pid: number) => boolean,
): string[] {
  return found
    .filter((info) => {
      const owner = Number(info.Labels[labels.run]);
      return info.Labels[labels.host] === host && Number.isInteger(owner) && !alive(owner);
    })
    .map((info) => info.Id);
}

/** Removes, with their volumes, containers left by runs on this host whose process is gone: Ryuk is off. */
export async function sweepStaleContainers(client: ContainerRuntimeClient): Promise<string[]> {
  const docker = client.container.dockerode;
  const found = await docker.listContainers({ all: true, filters: { label: [labels.run] } });
  const stale = staleContainers(found, os.hostname(), isAlive);
  await Promise.all(stale.map((id) => docker.getContainer(id).remove({ force: true, v: true })));
  return stale;
}

/** Ids of the containers a process started (default: this one) that still exist, running or not. */
export async function containersOf(pid = process.pid): Promise<string[]> {
  const client = await containerRuntime();
  const found = await client.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${labels.run}=${pid}`] },
  });
  return found.map((info) => info.Id);
}

/**
 * A detached watchdog that removes the container once this process is gone, even by SIGKILL (signal handlers
 * cover the rest). It needs the docker CLI; without it the next run's sweep removes the container instead.
 */
export function startContainerReaper(containerId: string): ChildProcess {
  const script = `
    while kill -0 "$1" 2>/dev/null; do sleep 1; done
    docker rm -f -v "$2" >/dev/null 2>&1`;
  const child = spawn('sh', ['-c', script, 'auditbench-container-reaper', String(process.pid), containerId], {
    detached: true,
    stdio: 'ignore',
  });
  child.on('error', () => {});
  child.unref();
  return child;
}

export function stopContainerReaper(reaper: ChildProcess): void {
  try {
    // Its own process group (detached): the shell and its sleep.
    if (reaper.pid) process.kill(-reaper.pid);
  } catch {
    // Already gone.
  }
}

/** The last lines the container wrote (the server's error log goes to stderr), across its restarts. */
export async function containerLogTail(
  client: ContainerRuntimeClient,
  containerId: string,
  lines: number,
  sinceMs = 0,
): Promise<string> {
  const raw = await client.container.dockerode.getContainer(containerId).logs({
    stdout: true,
    stderr: true,
    follow: false,
    tail: lines,
    since: Math.floor(sinceMs / 1000),
  });
  return tailLines(demuxDockerLog(raw).toString('utf8'), lines);
}
