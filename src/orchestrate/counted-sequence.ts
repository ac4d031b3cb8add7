import { noAddedCounts } from '../config/added-traffic.ts';
import type { Environment } from '../config/env.ts';
import {
  bufferPoolFor,
  callgrindWrapper,
  checkCollected,
  clearDumps,
  countedServerOptions,
  DUMP_MARKER,
  listDumps,
  waitForNewDump,
  waitForPoolLoad,
  ZERO_MARKER,
} from '../counted/callgrind-server.ts';
import {
  checkPolled,
  ownThread,
  pollConnectionThreads,
  threadsCreated,
} from '../counted/connection-threads.ts';
import {
  type CountedAdded,
  type CountedArmReading,
  type CountedArms,
  type CountedRunOutcome,
  type CountedServer,
  type CountedSubject,
  WARMUP_ARMS,
} from '../counted/counted-ab.ts';
import { abbaOrder } from '../counted/counted-stats.ts';
import { alignAll, connectionIds, type IdAlignment, queryIds } from '../counted/id-widths.ts';
import {
  isThreadPool,
  normalThreadHandling,
  noThreadsLine,
  serverThreadHandling,
} from '../counted/thread-handling.ts';
import {
  armWrites,
  type IdleWrites,
  idleWindow,
  type NotServing,
  processWrites,
  readIo,
  readThreadIo,
} from '../counted/thread-io.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import { LogGrowth } from '../plugins/log-files.ts';
import { listLogFiles, readLogEvents } from '../plugins/log-reader.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps } from '../plugins/steps.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { addedPerArm, sendAddedOperations } from '../traffic/added-load.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import type { CountedSeams } from './seams.ts';

// The counted channel's measuring sequence: a local server started, its tables loaded, then restarted under
// callgrind; a discarded warm-up arm, then the ABBA arms, each read from its dump and from /proc. Two callers compose
// it: a run's or a gate comparison's count (counted-run.ts) and the counted suite's host (counted-host.ts). What it
// reads and parses is src/counted's; the server, sysbench and the clock come through the seams.

const clockOf = (seams: CountedSeams): Clock => seams.clock ?? realClock;

/**
 * Starts a local server that later runs under callgrind: the tables load at full speed, then the server restarts
 * under valgrind with its buffer pool reloaded (InnoDB's dump at shutdown), and the subject is installed under it.
 */
export async function startCountedServer(
  config: Pick<Environment, 'mysqldPath' | 'searchPath' | 'pluginDir'>,
  {
    job,
    subject,
    loader,
    progress,
  }: {
    job: SysbenchJob;
    subject: CountedSubject;
    /** The account the tables are loaded as, or how to make it once the server runs. */
    loader: ConnectionOptions | ((server: StartedServer) => Promise<ConnectionOptions>);
    progress: (message: string) => void;
  },
  seams: CountedSeams,
): Promise<CountedServer> {
  if (normalThreadHandling(subject.threadHandling) === 'no-threads')
    throw new Error(noThreadsLine(subject.label, subject.threadHandling ?? ''));
  let counting = false;
  let dumpDir = '';
  const server = await seams.counted.startLocalServer({
    mysqldPath: config.mysqldPath,
    searchPath: config.searchPath,
    pluginDir: config.pluginDir,
    options: {
      ...countedServerOptions(bufferPoolFor(job.tables, job.tableSize)),
      'loose-innodb_buffer_pool_dump_at_shutdown': 'ON',
      'loose-innodb_buffer_pool_load_at_startup': 'ON',
      'loose-innodb_buffer_pool_dump_pct': '100',
    },
    startTimeoutMs: 180_000,
    wrapper: (dir) => {
      dumpDir = dir;
      return counting
        ? callgrindWrapper({
            dir,
            selfModifyingCode: subject.selfModifyingCode ?? false,
            threadHandling: subject.threadHandling ?? null,
          })
        : null;
    },
  });
  try {
    const application = typeof loader === 'function' ? await loader(server) : loader;
    await seams.counted.prepare(application, job);
    counting = true;
    const clock = clockOf(seams);
    const started = clock.nowMs();
    await server.restart();
    progress(`counted server under callgrind in ${Math.round((clock.nowMs() - started) / 1000)} s`);
    const pool = await waitForPoolLoad(server, clock);
    progress(
      pool.loaded ? `buffer pool reloaded in ${pool.waitedS} s` : `buffer pool not reloaded: ${pool.status}`,
    );
    await runSteps(server, subject.setup, `Setting up ${subject.label} on the counted server`);
    return { server, dumpDir, application, background: await backgroundThreads(server) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Restarts a counted server with `thread_handling` set to `threadHandling` (callgrind then toggles at that handling's
 * entry points), waits for its buffer pool, and reads its background threads again. `subject` is the one it started
 * with.
 */
export async function restartUnder(
  counted: CountedServer,
  subject: CountedSubject,
  threadHandling: string,
  progress: (message: string) => void,
  seams: CountedSeams,
): Promise<CountedServer> {
  if (normalThreadHandling(threadHandling) === 'no-threads')
    throw new Error(noThreadsLine(subject.label, threadHandling));
  subject.threadHandling = threadHandling;
  const set = { kind: 'config', edit: { set: { thread_handling: threadHandling } } } as const;
  await runSteps(
    counted.server,
    [set, { kind: 'restart' }],
    `Restarting with thread_handling=${threadHandling}`,
  );
  await clearDumps(counted.dumpDir);
  const pool = await waitForPoolLoad(counted.server, clockOf(seams));
  progress(
    pool.loaded ? `buffer pool reloaded in ${pool.waitedS} s` : `buffer pool not reloaded: ${pool.status}`,
  );
  return { ...counted, background: await backgroundThreads(counted.server) };
}

/** The server's threads while only the harness is connected: its background threads, and the harness's own. */
async function backgroundThreads(server: StartedServer): Promise<Set<number>> {
  const pid = server.processId?.();
  if (!pid) throw new Error('The counted server is not running');
  return new Set((await readThreadIo(pid)).keys());
}

/** Runs the discarded arm and the ABBA arms on a counted server, reading each arm's dump as it is written. */
export async function countArms(
  counted: CountedServer,
  what: CountedArms,
  seams: CountedSeams,
): Promise<Omit<CountedRunOutcome, 'server'>> {
  const { subject, plan, progress } = what;
  const { server } = counted;
  const clock = clockOf(seams);
  const started = clock.nowMs();
  const order = ['off' as const, ...abbaOrder(plan.pairs)];
  const readings: CountedArmReading[] = [];
  const own = await ownThread(server);
  const pool = isThreadPool(await serverThreadHandling(server));
  const threads: CountedThreads = {
    own: own.tid,
    ownId: own.id,
    background: counted.background,
    polled: new Set<number>(),
    pool,
    idle: null,
  };
  const ids = [connectionIds(server), queryIds(server, WARMUP_ARMS)] as const;
  const beforeWarmup = await Promise.all(ids.map((source) => source.read()));
  let aligned: (Omit<IdAlignment, 'last'> | null)[] = [];
  for (const [index, kind] of order.entries()) {
    if (index === 1) aligned = await alignAll(ids, beforeWarmup, order.length - 1, progress, clock);
    if (index === 1 && pool) threads.idle = await poolIdle(counted, readings[0], progress, clock);
    await runSteps(
      server,
      kind === 'on' ? subject.arms.on : subject.arms.off,
      `Switching ${subject.label} ${kind}`,
    );
    const arm = { kind, threads, learn: index === 0 };
    readings.push(await countOneArm(counted, what, arm, seams));
    const last = readings.at(-1) as CountedArmReading;
    const ir = Math.round(last.totals.instructions / last.transactions);
    progress(
      `counted arm ${index}/${order.length - 1} (${kind}${index === 0 ? ', warm-up' : ''}): ${ir} instructions per transaction`,
    );
  }
  const lastIds = await Promise.all(ids.map((source) => source.read()));
  const around = (i: number): IdAlignment | null => {
    const a = aligned[i];
    const last = lastIds[i];
    return a && last !== null && last !== undefined ? { ...a, last } : null;
  };
  await runSteps(server, subject.arms.off, `Switching ${subject.label} off`);
  const [warmup, ...arms] = readings as [CountedArmReading, ...CountedArmReading[]];
  return {
    warmup,
    arms,
    wallS: (clock.nowMs() - started) / 1000,
    connectionIds: around(0),
    queryIds: around(1),
  };
}

/**
 * The threads of one counted server's arms: the harness's own and the server's, and those the warm-up saw serving.
 * Under the thread pool (`pool`) the whole process counts instead, less `idle`, its writes with no client connected.
 */
interface CountedThreads extends NotServing {
  ownId: number;
  polled: Set<number>;
  pool: boolean;
  idle: IdleWrites | null;
}

/** The thread pool's idle writes, over one arm's length (a third of the warm-up's span), said in a line. */
async function poolIdle(
  { server }: CountedServer,
  warmup: CountedArmReading | undefined,
  progress: (message: string) => void,
  clock: Clock,
): Promise<IdleWrites> {
  const pid = server.processId?.();
  if (!pid) throw new Error('The counted server is not running');
  const idle = await idleWindow(pid, (warmup?.spanS ?? 0) / WARMUP_ARMS, clock);
  progress(
    `thread pool: the whole server counts, less its idle writes (${idle.io.writeCalls} write calls in ${idle.seconds.toFixed(1)} s with no client)`,
  );
  return idle;
}

async function countOneArm(
  { server, dumpDir, application }: CountedServer,
  { job, subject, plan, added = null }: CountedArms,
  { kind, threads, learn }: { kind: 'off' | 'on'; threads: CountedThreads; learn: boolean },
  seams: CountedSeams,
): Promise<CountedArmReading> {
  const clock = clockOf(seams);
  const pid = server.processId?.();
  if (!pid) throw new Error('The counted server is not running');
  const dumpsBefore = await listDumps(dumpDir);
  // Read before the log's size and after its events: a plugin may log the statement itself.
  const createdBefore = await threadsCreated(server);
  const logFiles = subject.log ? await listLogFiles(server, subject.log) : [];
  const growth = new LogGrowth(logFiles);
  const eventsBefore = subject.log ? await eventCount(server, subject.log) : 0;
  await server.query(ZERO_MARKER);
  const ioBefore = await readIo(pid, clock);
  // Only the warm-up asks the server which threads serve sysbench (a query in a measured arm would be counted), to
  // check that none of them is one the count leaves out as the server's own. The pool's processlist shows TID 0.
  const polling =
    learn && !threads.pool ? pollConnectionThreads(server, threads.ownId, threads.polled) : null;
  let transactions: number;
  try {
    // The warm-up sends three arms' worth: the first arms after a start count up to 5% more (caches still filling).
    const run = learn ? { ...plan, events: plan.events * WARMUP_ARMS } : plan;
    ({ transactions } = await seams.counted.events(application, job, run));
    if (added) await sendAdded(added, run.events, { app: application, admin: server.connection });
  } finally {
    polling?.stop();
    await polling?.done;
  }
  if (polling) checkPolled(threads);
  const ioAfter = await readIo(pid, clock);
  if (subject.log) growth.observe(await listLogFiles(server, subject.log));
  await server.query(DUMP_MARKER);
  const dump = await waitForNewDump(dumpDir, dumpsBefore, clock);
  checkCollected(dump.totalIr, subject.threadHandling);
  const eventsAfter = subject.log ? await eventCount(server, subject.log) : 0;
  const writes = threads.pool
    ? processWrites(ioBefore, ioAfter, threads.idle)
    : armWrites(ioBefore.threads, ioAfter.threads, threads, (await threadsCreated(server)) - createdBefore);
  return {
    kind,
    transactions,
    totals: {
      instructions: dump.totalIr,
      writeCalls: writes.io.writeCalls,
      writeBytes: writes.io.writeBytes,
      logBytes: growth.bytesWritten,
      events: Math.max(0, eventsAfter - eventsBefore),
    },
    dump,
    lostThreads: writes.exited.length + writes.unseen,
    spanS: (ioAfter.atMs - ioBefore.atMs) / 1000,
  };
}

/** The arm's added operations; one that fails makes the arms unlike, so the counted run stops. */
async function sendAdded(
  added: CountedAdded,
  transactions: number,
  sessions: { app: ConnectionOptions; admin: ConnectionOptions },
): Promise<void> {
  const counts = noAddedCounts();
  const plan = addedPerArm(added.rates, added.wallClockTps, transactions);
  await sendAddedOperations(plan, { ...sessions, failingUser: added.failingUser }, counts);
  if (counts.errors > 0)
    throw new Error(
      `${counts.errors} of the counted arm's added operations failed (${plan.map(([k, n]) => `${n} ${k}`).join(', ')}): the arms would not send the same traffic`,
    );
}

async function eventCount(server: StartedServer, profile: PluginProfile): Promise<number> {
  if (profile.log.format === null) return 0;
  return (await readLogEvents(server, profile)).events.length;
}
