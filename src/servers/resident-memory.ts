import { readdir, readFile } from 'node:fs/promises';

/**
 * The measured server's resident memory, read from /proc on this machine: the local target's child, a container's
 * process (the kernel is shared, so its host pid is visible here), or an external server whose pid file is here.
 */

/** VmRSS from the text of /proc/<pid>/status, in bytes; null when the line is missing (a kernel thread, a zombie). */
export function parseVmRssBytes(status: string): number | null {
  const match = /^VmRSS:\s+(\d+)\s+kB\s*$/m.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** The process name from the text of /proc/<pid>/stat (it may hold spaces and parentheses), and its parent. */
export function parseStatNameAndParent(stat: string): { comm: string; ppid: number } | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  return Number.isInteger(ppid) ? { comm: stat.slice(open + 1, close), ppid } : null;
}

const SERVER_NAMES = new Set(['mariadbd', 'mysqld']);

/** Resident bytes of one process; null once it is gone. */
export async function residentBytesOf(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  return status === null ? null : parseVmRssBytes(status);
}

/**
 * The server process at or under `rootPid`: the root when it is mariadbd/mysqld, else its first descendant of that
 * name (an image's entry point may stay as the parent). Null when none is found.
 */
export async function serverProcessUnder(rootPid: number): Promise<number | null> {
  const own = await readFile(`/proc/${rootPid}/stat`, 'utf8').catch(() => null);
  const root = own === null ? null : parseStatNameAndParent(own);
  if (root && SERVER_NAMES.has(root.comm)) return rootPid;
  const children = new Map<number, { comm: string; pid: number }[]>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    const parsed = text === null ? null : parseStatNameAndParent(text);
    if (!parsed) continue;
    const list = children.get(parsed.ppid) ?? [];
    list.push({ comm: parsed.comm, pid });
    children.set(parsed.ppid, list);
  }
  const queue = [rootPid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      if (SERVER_NAMES.has(child.comm)) return child.pid;
      queue.push(child.pid);
    }
  }
  return null;
}
