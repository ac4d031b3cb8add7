import { readdir, readFile } from 'node:fs/promises';

/** Field 22 of /proc/<pid>/stat (clock ticks after boot): a pid and its start time name one process, even after reuse. */
export function startTicksIn(stat: string): number | null {
  // The command name (field 2) may hold spaces and ')', so the fields are counted from its last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[19]);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

/** Whether /proc/<pid>/stat says the process has exited and waits to be reaped (it can no longer do anything). */
export function isZombieIn(stat: string): boolean {
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** The arguments of /proc/<pid>/cmdline: NUL-separated, with a NUL after the last. */
export function argvIn(cmdline: Buffer): string[] {
  const text = cmdline.toString('utf8');
  return (text.endsWith('\0') ? text.slice(0, -1) : text).split('\0');
}

/** Whether a process exists: only ESRCH means gone (EPERM is another user's live process). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** What /proc says of a pid: gone (or a zombie, which can do nothing more), running since a start time, or unknown. */
export type ProcessState = { running: false } | { running: true; startTicks: number | null };

export async function processState(pid: number): Promise<ProcessState> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // Unreadable (another user's under hidepid): the signal's answer stands, with no start time to compare.
  if (stat === null) return isAlive(pid) ? { running: true, startTicks: null } : { running: false };
  return isZombieIn(stat) ? { running: false } : { running: true, startTicks: startTicksIn(stat) };
}

/** The start time of a running process, or null when it is gone or /proc cannot say. */
export async function startTicksOf(pid: number): Promise<number | null> {
  const state = await processState(pid);
  return state.running ? state.startTicks : null;
}

/** A process as /proc shows it: its argv (exactly, never as a pattern) and when it started. */
export interface ProcEntry {
  pid: number;
  argv: string[];
  startTicks: number | null;
}

/** Every live process whose argv holds `arg` as one whole argument (string equality, so no name is ever a pattern). */
export async function processesWithArg(arg: string): Promise<ProcEntry[]> {
  const found: ProcEntry[] = [];
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`).catch(() => null);
    if (cmdline === null || cmdline.length === 0) continue;
    const argv = argvIn(cmdline);
    if (!argv.includes(arg)) continue;
    const startTicks = await startTicksOf(pid);
    if (startTicks !== null) found.push({ pid, argv, startTicks });
  }
  return found;
}
