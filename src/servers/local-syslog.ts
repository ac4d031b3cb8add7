import { access, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { execa, type ResultPromise } from 'execa';
import type { LaunchWrapper } from './server-process.ts';
import {
  DRAIN_TAG,
  drainThrough,
  privateDevLogFacts,
  privateDevLogProblem,
  privateDevWrapper,
  type ReceiverControl,
  type ReceiverPaths,
  receiverConfig,
  receiverPaths,
} from './syslog-receiver.ts';

/** A local server's own syslog receiver: an rsyslogd of its own, and the wrapper that shows it as /dev/log. */
export interface LocalSyslog {
  paths: ReceiverPaths;
  /** The receiver's process id (for the pause fault), or null once it has stopped. */
  pid(): number | null;
  /** Wraps the server's launch (and callgrind's wrapper, when given) in the private /dev. */
  wrap(inner: LaunchWrapper | null): LaunchWrapper;
  /**
   * Resolves once the receiver has written every datagram sent to it before the call: a marker datagram, sent to the
   * same socket after them, has reached its own file (a socket and rsyslog's main queue keep their order), and the
   * records' file then holds still for 50 ms (the two files' writes end one batch in either order).
   */
  drain(): Promise<void>;
  /** The receiver faults' handle on it. */
  control: ReceiverControl;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the receiver of a local server whose private folder is `dir`, when this machine can give it a private
 * /dev/log (root, unshare, rsyslogd); null when it cannot (a syslog run is then refused in the preflight, and the
 * server launches as before). The folder becomes a shared bind of itself, so mounts the fault phase makes in it
 * later reach the server's namespace.
 */
export async function startLocalSyslog(
  dir: string,
  datadir: string,
  searchPath: string,
): Promise<LocalSyslog | null> {
  const facts = await privateDevLogFacts('local', searchPath);
  if (privateDevLogProblem(facts) !== null || !facts.unshare || !facts.rsyslogd) return null;
  const unshare = facts.unshare;
  const paths = receiverPaths(dir, datadir);
  await mkdir(paths.work, { recursive: true });
  await writeFile(paths.config, receiverConfig(paths));
  await execa('mount', ['--bind', dir, dir]);
  await execa('mount', ['--make-shared', dir]);
  let child: ResultPromise | null = null;
  try {
    child = (await startReceiver(facts.rsyslogd, paths)).child;
  } catch (error) {
    await execa('umount', ['-l', dir], { reject: false });
    throw error;
  }
  const rsyslogd = facts.rsyslogd;
  // A child ended by a signal keeps exitCode null: signalCode says it is gone.
  const running = () => (child && child.exitCode === null && child.signalCode === null ? child : null);
  const control: ReceiverControl = {
    socket: paths.socket,
    pause: () => void running()?.kill('SIGSTOP'),
    resume: () => void running()?.kill('SIGCONT'),
    async kill() {
      const was = running();
      was?.kill('SIGKILL');
      await was?.catch(() => undefined);
    },
    async start() {
      if (running()) throw new Error(`rsyslogd (${paths.config}) is running already; kill it first`);
      // rsyslogd replaces a stale socket itself; removed first, the new one's appearance says it is ready.
      await rm(paths.socket, { force: true });
      child = (await startReceiver(rsyslogd, paths)).child;
    },
    removeSocket: () => rm(paths.socket, { force: true }),
  };
  return {
    paths,
    pid: () => running()?.pid ?? null,
    wrap: (inner) => privateDevWrapper(unshare, paths.socket, inner),
    drain: () => drainReceiver(paths),
    control,
    async stop() {
      const was = child;
      child = null;
      if (was) {
        // SIGKILL ends a paused (SIGSTOP) receiver too.
        was.kill('SIGKILL');
        await was.catch(() => undefined);
      }
      await execa('umount', ['-l', dir], { reject: false });
    },
  };
}

/** rsyslogd in the foreground (-n), its own configuration and pid file; ready once its socket exists. */
async function startReceiver(rsyslogd: string, paths: ReceiverPaths): Promise<{ child: ResultPromise }> {
  const child = execa(rsyslogd, ['-n', '-f', paths.config, '-i', paths.pidFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    reject: false,
    cleanup: true,
  });
  for (let waitedMs = 0; waitedMs < 10_000; waitedMs += 50) {
    if (child.exitCode !== null) break;
    const ready = await access(paths.socket).then(
      () => true,
      () => false,
    );
    // Wrapped: an async function returning the subprocess itself would wait for it to exit.
    if (ready) return { child };
    await sleep(50);
  }
  child.kill('SIGKILL');
  const result = await child;
  throw new Error(
    `rsyslogd (${rsyslogd} -f ${paths.config}) did not create its socket ${paths.socket} within 10 s: ${String(result.stderr).trim() || 'no message'}`,
  );
}

/** A drain marker through util-linux's logger (Node has no Unix datagram socket), then its file polled for it. */
function drainReceiver(paths: ReceiverPaths): Promise<void> {
  return drainThrough(
    {
      send: async (token) => void (await execa('logger', ['-u', paths.socket, '-d', '-t', DRAIN_TAG, token])),
      drained: () => readFile(paths.drain, 'utf8').catch(() => ''),
      outputSize: () =>
        stat(paths.output).then(
          (s) => s.size,
          () => 0,
        ),
    },
    paths.socket,
  );
}
