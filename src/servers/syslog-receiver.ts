import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { TargetName } from '../config/lists.ts';
import type { LaunchWrapper } from './server-process.ts';

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
  // A container's /dev is its own, and its receiver is in the image (container-syslog.ts, syslog-problem.ts).
  if (facts.target === 'container') return null;
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

/** The receiver's file in the datadir, where the log readers look (StartedServer.listFiles/readFile). */
export const SYSLOG_FILE = 'syslog.log';

/** Where one local server's receiver keeps its own files: all inside the server's private folder. */
export interface ReceiverPaths {
  /** The folder of the configuration, socket, work folder and pid file. */
  dir: string;
  config: string;
  socket: string;
  work: string;
  pidFile: string;
  /** rsyslogd's own messages (its start, its errors), kept apart from the records. */
  internal: string;
  /** The records, one a line: `<PRI>time tag:message` (src/plugins/logs/syslog-framing.ts). */
  output: string;
  /** The harness's drain markers (DRAIN_TAG), kept out of the records (LocalSyslog.drain). */
  drain: string;
}

/** The tag of the datagrams the harness sends the receiver to learn that it wrote what came before them. */
export const DRAIN_TAG = 'auditbench-drain';

/** How a drain reaches one receiver: a datagram tagged DRAIN_TAG sent, its file read, the records' file's size. */
export interface DrainIo {
  send(token: string): Promise<void>;
  drained(): Promise<string>;
  outputSize(): Promise<number>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the receiver has written every datagram sent to it before the call: a marker datagram, sent to the
 * same socket after them, has reached its own file (a socket and rsyslog's main queue keep their order), and the
 * records' file then holds still for 50 ms (the two files' writes end one batch in either order). Local and
 * container receivers differ only in how they send and read (`io`).
 */
export async function drainThrough(io: DrainIo, socket: string): Promise<void> {
  const token = randomUUID();
  await io.send(token);
  for (let waitedMs = 0; ; waitedMs += 20) {
    if ((await io.drained()).includes(token)) break;
    if (waitedMs >= 10_000)
      throw new Error(`the run's syslog receiver did not write a marker sent to ${socket} within 10 s`);
    await pause(20);
  }
  for (let before = await io.outputSize(), checks = 0; checks < 50; checks++) {
    await pause(50);
    const now = await io.outputSize();
    if (now === before) return;
    before = now;
  }
}

export function receiverPaths(privateDir: string, datadir: string): ReceiverPaths {
  const dir = path.join(privateDir, 'syslog');
  return {
    dir,
    config: path.join(dir, 'rsyslog.conf'),
    socket: path.join(dir, 'log'),
    work: path.join(dir, 'work'),
    pidFile: path.join(dir, 'rsyslogd.pid'),
    internal: path.join(dir, 'rsyslogd.log'),
    output: path.join(datadir, SYSLOG_FILE),
    drain: path.join(dir, 'drain.log'),
  };
}

/**
 * What the receiver faults do to a run's own rsyslogd (src/faults/receiver-faults.ts): signal it, kill it and start it
 * again with the same configuration and socket, remove its socket. Each resolves once done; `start` once the new
 * socket exists.
 */
export interface ReceiverControl {
  readonly socket: string;
  /** SIGSTOP: the receiver stops reading; its socket's queue fills and senders block. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGKILL, and waits for it to exit; its socket file stays, with no reader behind it. */
  kill(): Promise<void>;
  /** A new rsyslogd with the same configuration, once none is running; resolves once its socket exists. */
  start(): Promise<void>;
  /** Unlinks the socket file; the running receiver keeps its bound socket. */
  removeSocket(): Promise<void>;
}

/** Largest record the receiver keeps whole (rsyslog's default maxMessageSize, 8 KiB, would cut long statements). */
export const MAX_MESSAGE_BYTES = 1_048_576;

/**
 * rsyslogd's configuration: its own socket only (no system socket, no kernel log), every record to one file.
 * Off, because completeness would otherwise measure rsyslog, not the plugin: imuxsock's rate limiting (200 records
 * in 5 s per process by default, the rest dropped), control-character escaping (a tab or newline written as
 * `#011`/`#012`) and the 8 KiB message limit. rsyslogd's own messages are processed here, into a file of their own
 * (processInternalMessages): by default rsyslog sends them to the system's /dev/log, so the run's receiver would put
 * its start message into the host's journal (suites/syslog-canary.suite.ts caught it). The harness's drain markers go
 * to a file of their own too (LocalSyslog.drain). rsyslog's own documentation:
 * imuxsock (RateLimit.Interval, SysSock.Use), global() (maxMessageSize, parser.escapeControlCharactersOnReceive,
 * processInternalMessages), the inputname property, omfile, string templates.
 */
export function receiverConfig(paths: ReceiverPaths): string {
  const q = (text: string) => JSON.stringify(text);
  return [
    `global(workDirectory=${q(paths.work)} maxMessageSize="${MAX_MESSAGE_BYTES}" parser.escapeControlCharactersOnReceive="off" processInternalMessages="on")`,
    'module(load="imuxsock" SysSock.Use="off")',
    `input(type="imuxsock" Socket=${q(paths.socket)} RateLimit.Interval="0" CreatePath="off")`,
    'template(name="auditbench" type="string" string="<%PRI%>%TIMESTAMP:::date-rfc3339% %syslogtag%%msg%\\n")',
    `if $inputname == "rsyslogd" then { action(type="omfile" file=${q(paths.internal)}) stop }`,
    `if $programname == "${DRAIN_TAG}" then { action(type="omfile" file=${q(paths.drain)}) stop }`,
    `*.* action(type="omfile" file=${q(paths.output)} template="auditbench" fileCreateMode="0644")`,
    '',
  ].join('\n');
}

/** A character set safe to name in a shell word and a configuration string unquoted-by-accident. */
const SAFE_PATH = /^\/[\w./-]+$/;

/**
 * The launch wrapper that gives the server its private /dev: a mount namespace (`unshare -m`, mounts from the
 * host still reaching it through the shared bind of its folder: `--propagation slave`), a tmpfs on /dev with the
 * device nodes a server opens, and /dev/log a symlink to the receiver's socket (a symlink, not a bind: a restarted
 * receiver's new socket is reached too). `exec "$@"` keeps the process id the server's (no --fork), and `inner`
 * (callgrind's valgrind) runs inside the namespace, then the server.
 */
export function privateDevWrapper(
  unshare: string,
  socket: string,
  inner: LaunchWrapper | null,
): LaunchWrapper {
  if (!SAFE_PATH.test(socket)) throw new Error(`The receiver's socket path ${socket} is not a plain path`);
  const nodes = DEVICE_NODES.map(([name, major, minor]) => `mknod -m 666 /dev/${name} c ${major} ${minor}`);
  const script = [
    'set -e',
    'mount -t tmpfs -o mode=755,size=64k auditbench-dev /dev',
    ...nodes,
    `ln -s ${socket} /dev/log`,
    'exec "$@"',
  ].join('; ');
  const innerArgs = inner ? [inner.command, ...inner.args] : [];
  return {
    command: unshare,
    args: ['-m', '--propagation', 'slave', 'sh', '-c', script, 'sh', ...innerArgs],
    ...(inner?.env ? { env: inner.env } : {}),
  };
}

/** The character devices a server (and valgrind) opens under /dev: name, major, minor (Linux devices.txt). */
const DEVICE_NODES: [string, number, number][] = [
  ['null', 1, 3],
  ['zero', 1, 5],
  ['full', 1, 7],
  ['random', 1, 8],
  ['urandom', 1, 9],
  ['tty', 5, 0],
];
