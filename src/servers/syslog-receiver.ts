import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { TargetName } from '../config/lists.ts';

/**
 * What a private /dev/log needs on this machine: a mount namespace (`unshare -m`, root only) whose /dev is a tmpfs
 * holding the socket of an rsyslogd the run starts itself. Without all three, a server sending to syslog would reach
 * the host's /dev/log (its journal and forwarding) or nothing at all.
 */
export interface PrivateDevLogFacts {
  target: TargetName;
  root: boolean;
  /** unshare(1) from util-linux, on PATH. */
  unshare: string | null;
  /** rsyslogd, on PATH or in /usr/sbin. */
  rsyslogd: string | null;
}

/**
 * Why a run sending to syslog cannot get a receiver of its own here, with what to do; null when it can. Said before
 * any server starts: a refused run never sends a record.
 */
export function privateDevLogProblem(facts: PrivateDevLogFacts): string | null {
  if (facts.target === 'external') {
    return "an external server's syslog goes to its own host, which auditbench neither owns nor reads: measure it with AUDITBENCH_TARGET=local";
  }
  if (facts.target === 'container') {
    return 'the container target has no receiver of its own yet: measure it with AUDITBENCH_TARGET=local';
  }
  if (!facts.root) {
    return 'the private /dev/log is a mount namespace (unshare -m), which needs root: run auditbench as root (as CI does), or measure server_audit_output_type=file';
  }
  if (facts.unshare === null)
    return 'unshare is not on PATH: install util-linux (apt-get install util-linux)';
  if (facts.rsyslogd === null) {
    return "rsyslogd is not installed: run scripts/setup.sh (it installs rsyslog when a syslog run is configured) or apt-get install rsyslog; the run's own rsyslogd is the receiver";
  }
  return null;
}

/** The one line that refuses a run: which run, why it needs its own receiver, and the problem. */
export const syslogRunRefusal = (runId: string, problem: string): string =>
  `run '${runId}' sends its records to syslog (server_audit_output_type=syslog), and auditbench gives such a run a private /dev/log so none reaches this host's journal; it cannot here: ${problem}`;

/** The facts of this machine, for privateDevLogProblem. Reads PATH only; starts nothing. */
export async function privateDevLogFacts(
  target: TargetName,
  searchPath: string,
): Promise<PrivateDevLogFacts> {
  return {
    target,
    root: process.getuid?.() === 0,
    unshare: await onPath('unshare', searchPath),
    rsyslogd: await onPath('rsyslogd', `${searchPath}${path.delimiter}/usr/sbin`),
  };
}

async function onPath(program: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, program);
    const runnable = await access(file, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (runnable) return file;
  }
  return null;
}
