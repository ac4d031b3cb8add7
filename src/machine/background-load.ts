// A controlled neighbour for the coverage script: a memory-bound process, which is what this VM's neighbours are
// (they share its caches and memory bandwidth). It is counted as another process's load, never as auditbench's.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { countAsOther } from './sampler.ts';

// Scattered read-modify-writes over 64 MB, far beyond any cache here: each step waits on memory, not the ALU.
const MEMORY_BOUND_LOOP = `
const cells = new Float64Array(8 * 1024 * 1024);
for (let i = 0; ; i = (i + 4_099_963) % cells.length) cells[i] += 1;
`;

export interface BackgroundLoad {
  pids: number[];
  stop(): Promise<void>;
}

/** Starts `processes` memory-bound loops (optionally pinned with taskset, e.g. '0,1'); stop() kills them. */
export async function startBackgroundLoad(
  options: { processes?: number; cpus?: string } = {},
): Promise<BackgroundLoad> {
  const { processes = 1, cpus } = options;
  const children: ChildProcess[] = [];
  const forget: (() => void)[] = [];
  const killAll = () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  // A test that dies must not leave a loop running on a shared machine.
  process.once('exit', killAll);
  for (let i = 0; i < processes; i++) {
    const command = cpus ? 'taskset' : process.execPath;
    const args = cpus ? ['-c', cpus, process.execPath, '-e', MEMORY_BOUND_LOOP] : ['-e', MEMORY_BOUND_LOOP];
    const child = spawn(command, args, { stdio: 'ignore' });
    await once(child, 'spawn');
    if (child.pid === undefined) throw new Error(`The background load (${command}) did not start`);
    children.push(child);
    forget.push(countAsOther(child.pid));
  }
  return {
    pids: children.flatMap((c) => (c.pid === undefined ? [] : [c.pid])),
    async stop() {
      const exits = children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => once(c, 'exit'));
      killAll();
      await Promise.all(exits);
      for (const f of forget) f();
      process.off('exit', killAll);
    },
  };
}
