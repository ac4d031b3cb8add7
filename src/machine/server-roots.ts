// Where the measured server runs outside auditbench's process tree: a container's processes hang off
// containerd-shim, and its published port goes through docker-proxy, both children of the Docker daemon.
import type { TargetKind } from '../servers/started-server.ts';

export interface MeasuredOutsideTree {
  measuredRoots: number[];
  /** Process names outside auditbench's tree that serve the measurement. */
  measuredComms: string[];
}

/** The container target's server processes (this run's containers, by label) and the port proxies; nothing otherwise. */
export async function measuredOutsideTree(target: TargetKind): Promise<MeasuredOutsideTree> {
  if (target !== 'container') return { measuredRoots: [], measuredComms: [] };
  const { containerRuntime, containersOf } = await import('../servers/docker-engine.ts');
  const client = await containerRuntime();
  const ids = await containersOf();
  const pids = await Promise.all(
    ids.map(async (id) => (await client.container.dockerode.getContainer(id).inspect()).State.Pid),
  );
  return { measuredRoots: pids.filter((pid) => pid > 0), measuredComms: ['docker-proxy'] };
}
