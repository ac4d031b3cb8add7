// Who used the CPUs during a measured block: the measured processes (server, sysbench), auditbench itself,
// kernel threads, and everything else ("other": a neighbour's build, another benchmark, a stress process).
// Pure: works on snapshots of /proc that sampler.ts reads.
import type { CpuTimes, LoadAverage, ProcessTimes } from './proc.ts';

export interface ProcSnapshot {
  atMs: number;
  cpu: CpuTimes;
  load: LoadAverage;
  processes: ProcessTimes[];
}

export type ProcessClass = 'measured' | 'self' | 'kernel' | 'other';

export interface Classifier {
  /** auditbench's topmost process (the Vitest main process): its tree is auditbench. */
  selfRoot: number;
  /** Inside auditbench's tree, processes with these names (and their children) are what is measured. */
  measuredComms: readonly string[];
  /** Trees that are measured although outside auditbench's tree, e.g. a container's server. */
  measuredRoots: readonly number[];
  /** Trees that count as other although auditbench started them, e.g. the coverage script's background load. */
  otherRoots: { includes(pid: number): boolean };
  /** Process names measured wherever they run, e.g. docker-proxy carrying sysbench's traffic to a container. */
  measuredAnywhere?: readonly string[];
}

export const MEASURED_COMMS = ['mariadbd', 'mysqld', 'sysbench', 'taskset'] as const;
const KTHREADD_PID = 2;

/** Classifies one process by the nearest ancestor (itself included) that decides it. */
export function classify(
  pid: number,
  parents: ReadonlyMap<number, ProcessTimes>,
  c: Classifier,
): ProcessClass {
  let measuredOnPath = false;
  for (let current = pid, hops = 0; hops < 1_000; hops++) {
    if (c.otherRoots.includes(current)) return 'other';
    if (c.measuredRoots.includes(current)) return 'measured';
    if (current === c.selfRoot) return measuredOnPath ? 'measured' : 'self';
    if (current === KTHREADD_PID) return 'kernel';
    const process = parents.get(current);
    if (process && c.measuredAnywhere?.includes(process.comm)) return 'measured';
    if (!process || process.ppid === 0) return 'other';
    if (c.measuredComms.includes(process.comm)) measuredOnPath = true;
    current = process.ppid;
  }
  return 'other';
}

export interface IntervalUse {
  seconds: number;
  /** CPU used in the interval, in % of one core. */
  cpuPct: Record<ProcessClass, number>;
  /** Share of all CPU time the hypervisor took, in %. */
  stealPct: number;
  load1: number;
  /** Ticks of other processes by name, for naming the culprits. */
  otherTicksByComm: Map<string, number>;
}

/** CPU use between two snapshots; a process first seen in `next` counts with all its ticks (it started since). */
export function intervalUse(
  previous: ProcSnapshot,
  next: ProcSnapshot,
  classifier: Classifier,
  clockTicksPerS = 100,
): IntervalUse {
  const seconds = (next.atMs - previous.atMs) / 1000;
  if (!(seconds > 0)) throw new Error(`snapshots must be in time order, got ${seconds} s between them`);
  const before = new Map(previous.processes.map((p) => [p.pid, p]));
  const byPid = new Map(next.processes.map((p) => [p.pid, p]));
  const ticks: Record<ProcessClass, number> = { measured: 0, self: 0, kernel: 0, other: 0 };
  const otherTicksByComm = new Map<string, number>();
  for (const process of next.processes) {
    const old = before.get(process.pid);
    const sameProcess = old !== undefined && old.startTicks === process.startTicks;
    const used = Math.max(0, process.cpuTicks - (sameProcess ? old.cpuTicks : 0));
    if (used === 0) continue;
    const kind = classify(process.pid, byPid, classifier);
    ticks[kind] += used;
    if (kind === 'other')
      otherTicksByComm.set(process.comm, (otherTicksByComm.get(process.comm) ?? 0) + used);
  }
  const toPct = (t: number) => (100 * t) / clockTicksPerS / seconds;
  const totalTicks = next.cpu.total - previous.cpu.total;
  return {
    seconds,
    cpuPct: {
      measured: toPct(ticks.measured),
      self: toPct(ticks.self),
      kernel: toPct(ticks.kernel),
      other: toPct(ticks.other),
    },
    stealPct: totalTicks > 0 ? (100 * (next.cpu.steal - previous.cpu.steal)) / totalTicks : 0,
    load1: next.load.load1,
    otherTicksByComm,
  };
}
