// Pure parsers of the Linux /proc files the interference sampler reads (proc(5)). Times are in clock ticks
// (USER_HZ, 100 on every Linux this runs on: `getconf CLK_TCK`).

/** The aggregate `cpu` line of /proc/stat: ticks spent in each state, summed over every CPU. */
export interface CpuTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  /** Time the hypervisor ran something else while this guest's CPU wanted to run. */
  steal: number;
  /** All ticks, including idle and iowait (guest time is already inside user and nice). */
  total: number;
}

/** Parses the aggregate `cpu` line of /proc/stat, or with `cpu` that one CPU's line (`cpu0`). */
export function parseProcStat(text: string, cpu?: number): CpuTimes {
  const name = cpu === undefined ? 'cpu' : `cpu${cpu}`;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`/proc/stat has no '${name} ' line; got '${text.slice(0, 80)}'`);
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 8 || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`/proc/stat 'cpu' line needs at least 8 numbers (up to steal); got '${line}'`);
  }
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { user, nice, system, idle, iowait, irq, softirq, steal, total };
}

/** Load averages over 1, 5 and 15 minutes from /proc/loadavg. */
export interface LoadAverage {
  load1: number;
  load5: number;
  load15: number;
}

export function parseLoadAvg(text: string): LoadAverage {
  const [load1, load5, load15] = text.trim().split(/\s+/).slice(0, 3).map(Number);
  if (![load1, load5, load15].every((v) => v !== undefined && Number.isFinite(v))) {
    throw new Error(`/proc/loadavg must start with three numbers; got '${text.trim()}'`);
  }
  return { load1: load1 as number, load5: load5 as number, load15: load15 as number };
}

/** The fields of /proc/<pid>/stat the sampler needs. */
export interface ProcessTimes {
  pid: number;
  /** Executable name, at most 15 characters; may hold spaces and parentheses. */
  comm: string;
  ppid: number;
  /** User + system ticks of every thread of the process (its reaped children are not included). */
  cpuTicks: number;
  /** The user part of cpuTicks; for /proc/<pid>/task/<tid>/stat, that thread's own. */
  userTicks: number;
  /** Ticks after boot when the process started: tells a new process from a recycled pid. */
  startTicks: number;
}

/** Parses /proc/<pid>/stat; null for a process that is gone (empty text). */
export function parseProcessStat(text: string): ProcessTimes | null {
  if (text.trim() === '') return null;
  // comm is in parentheses and may itself contain ') ', so split at the last one.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open)
    throw new Error(`/proc/<pid>/stat has no '(comm)'; got '${text.slice(0, 80)}'`);
  const pid = Number(text.slice(0, open).trim());
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); proc(5) numbers ppid 4, utime 14, stime 15, starttime 22.
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  const startTicks = Number(rest[19]);
  if (![pid, ppid, utime, stime, startTicks].every(Number.isFinite) || rest.length < 20) {
    throw new Error(`/proc/<pid>/stat is too short or not numeric; got '${text.slice(0, 120)}'`);
  }
  return {
    pid,
    comm: text.slice(open + 1, close),
    ppid,
    cpuTicks: utime + stime,
    userTicks: utime,
    startTicks,
  };
}
