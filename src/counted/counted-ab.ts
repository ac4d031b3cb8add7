import type { ArmSteps } from '../bench/subject.ts';
import { type AddedKind, noAddedCounts } from '../config/added-traffic.ts';
import type { Environment } from '../config/env.ts';
import { LogGrowth } from '../plugins/log-files.ts';
import { listLogFiles, readLogEvents } from '../plugins/log-reader.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps, type Step } from '../plugins/steps.ts';
import { startLocalServer } from '../servers/local-server.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { addedPerArm, sendAddedOperations } from '../traffic/added-load.ts';
import { prepareSysbench, runSysbenchEvents } from '../workload/sysbench-runner.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import type { CallgrindDump } from './callgrind-dump.ts';
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
} from './callgrind-server.ts';
import { checkPolled, ownThread, pollConnectionThreads, threadsCreated } from './connection-threads.ts';
import { abbaOrder, type CountedArm } from './counted-stats.ts';
import { alignAll, connectionIds, type IdAlignment, queryIds } from './id-widths.ts';
import {
  isThreadPool,
  normalThreadHandling,
  noThreadsLine,
  serverThreadHandling,
} from './thread-handling.ts';
import {
  armWrites,
  type IdleWrites,
  idleWindow,
  type NotServing,
  processWrites,
  readIo,
  readThreadIo,
} from './thread-io.ts';

/** What a counted A/B runs: the same fixed transactions per arm, `pairs` ABBA pairs after one discarded arm. */
export interface CountedPlan {
  /** Transactions per arm, from one seed: every arm sends the same statements. */
  events: number;
  seed: number;
  pairs: number;
}

export const defaultCountedPlan: CountedPlan = { events: 150, seed: 42, pairs: 3 };

/** The discarded first arm's length, in arms: it warms the server and learns which threads serve sysbench. */
const WARMUP_ARMS = 3;

export interface CountedSubject {
  label: string;
  /** Run once on the counted server before the arms: the plugin's install and its run's settings. */
  setup: Step[];
  /** What switches between the arms (plugin off/on, base/head settings). */
  arms: ArmSteps;
  /** The profile whose log is read for bytes and events, or null (A/A, a plugin without a file). */
  log: PluginProfile | null;
  /** The plugin patches the server's code at run time (valgrind must re-check it). */
  selfModifyingCode?: boolean;
  /**
   * The configuration's thread_handling: the thread pool's connections are counted from its own entry points. Read at
   * every (re)start of the counted server, so `restartUnder` can change it.
   */
  threadHandling?: string | null;
}

/**
 * traffic.added as a counted arm sends it: after the arm's transactions, a fixed number of each kind in proportion to
 * the wall clock's transactions (`addedPerArm`), from the same accounts as the wall-clock load.
 */
export interface CountedAdded {
  rates: [AddedKind, number][];
  /** The wall-clock run's throughput without the subject (its base arm), which turns rates into counts. */
  wallClockTps: number;
  /** The account whose logins fail (wrong password). */
  failingUser: string;
}

/** A started counted server: where callgrind writes its dumps, and how sysbench logs in to it. */
export interface CountedServer {
  server: StartedServer;
  dumpDir: string;
  application: ConnectionOptions;
  /** The threads it ran once set up, before any client but the harness connected: never counted as serving one. */
  background: ReadonlySet<number>;
}

/** One arm as counted, with the callgrind dump it wrote. */
export interface CountedArmReading extends CountedArm {
  dump: CallgrindDump;
  /**
   * Connection threads whose writes the arm could not count: ones that exited before the second reading, and ones
   * the server created in the arm that the reading never saw.
   */
  lostThreads: number;
  /** Seconds between the arm's two /proc readings. */
  spanS?: number;
}

export interface CountedRunOutcome {
  /** The discarded first arm, then the measured arms in order. */
  warmup: CountedArmReading;
  arms: CountedArmReading[];
  server: StartedServer;
  wallS: number;
  /** The query ids around the measured arms; null where the server does not show them (MySQL). */
  queryIds: IdAlignment | null;
  /** The connection ids around the measured arms; null where the server does not show them. */
  connectionIds: IdAlignment | null;
}

/**
 * The job a counted server runs: its transactions (test or script, prepared or not) on one thread, on at most
 * smoke's tables (4 × 10,000 rows), closed loop. What a plugin adds per transaction does not grow with the table (it
 * logs the statement, not the rows), and a counted server per run loads its own tables: standard's 800,000 rows would
 * add half a minute to each run. The identity names the tables, so only like is compared with like.
 */
export function countedJob(job: SysbenchJob): SysbenchJob {
  const { rate: _open, ...closed } = job;
  return {
    ...closed,
    threads: 1,
    tables: Math.min(job.tables, 4),
    tableSize: Math.min(job.tableSize, 10_000),
  };
}

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
): Promise<CountedServer> {
  if (normalThreadHandling(subject.threadHandling) === 'no-threads')
    throw new Error(noThreadsLine(subject.label, subject.threadHandling ?? ''));
  let counting = false;
  let dumpDir = '';
  const server = await startLocalServer({
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
    await prepareSysbench(application, job);
    counting = true;
    const started = Date.now();
    await server.restart();
    progress(`counted server under callgrind in ${Math.round((Date.now() - started) / 1000)} s`);
    const pool = await waitForPoolLoad(server);
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
  const pool = await waitForPoolLoad(counted.server);
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

/** What the arms on a counted server count: the job, the subject's two arms, the plan and the added traffic. */
export interface CountedArms {
  job: SysbenchJob;
  subject: CountedSubject;
  plan: CountedPlan;
  added?: CountedAdded | null;
  progress: (message: string) => void;
}

/** Runs the discarded arm and the ABBA arms on a counted server, reading each arm's dump as it is written. */
export async function countArms(
  counted: CountedServer,
  what: CountedArms,
): Promise<Omit<CountedRunOutcome, 'server'>> {
  const { subject, plan, progress } = what;
  const { server } = counted;
  const started = Date.now();
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
    if (index === 1) aligned = await alignAll(ids, beforeWarmup, order.length - 1, progress);
    if (index === 1 && pool) threads.idle = await poolIdle(counted, readings[0], progress);
    await runSteps(
      server,
      kind === 'on' ? subject.arms.on : subject.arms.off,
      `Switching ${subject.label} ${kind}`,
    );
    const arm = { kind, threads, learn: index === 0 };
    readings.push(await countOneArm(counted, what, arm));
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
    wallS: (Date.now() - started) / 1000,
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
): Promise<IdleWrites> {
  const pid = server.processId?.();
  if (!pid) throw new Error('The counted server is not running');
  const idle = await idleWindow(pid, (warmup?.spanS ?? 0) / WARMUP_ARMS);
  progress(
    `thread pool: the whole server counts, less its idle writes (${idle.io.writeCalls} write calls in ${idle.seconds.toFixed(1)} s with no client)`,
  );
  return idle;
}

async function countOneArm(
  { server, dumpDir, application }: CountedServer,
  { job, subject, plan, added = null }: CountedArms,
  { kind, threads, learn }: { kind: 'off' | 'on'; threads: CountedThreads; learn: boolean },
): Promise<CountedArmReading> {
  const pid = server.processId?.();
  if (!pid) throw new Error('The counted server is not running');
  const dumpsBefore = await listDumps(dumpDir);
  // Read before the log's size and after its events: a plugin may log the statement itself.
  const createdBefore = await threadsCreated(server);
  const logFiles = subject.log ? await listLogFiles(server, subject.log) : [];
  const growth = new LogGrowth(logFiles);
  const eventsBefore = subject.log ? await eventCount(server, subject.log) : 0;
  await server.query(ZERO_MARKER);
  const ioBefore = await readIo(pid);
  // Only the warm-up asks the server which threads serve sysbench (a query in a measured arm would be counted), to
  // check that none of them is one the count leaves out as the server's own. The pool's processlist shows TID 0.
  const polling =
    learn && !threads.pool ? pollConnectionThreads(server, threads.ownId, threads.polled) : null;
  let transactions: number;
  try {
    // The warm-up sends three arms' worth: the first arms after a start count up to 5% more (caches still filling).
    const run = learn ? { ...plan, events: plan.events * WARMUP_ARMS } : plan;
    ({ transactions } = await runSysbenchEvents(application, job, run));
    if (added) await sendAdded(added, run.events, { app: application, admin: server.connection });
  } finally {
    polling?.stop();
    await polling?.done;
  }
  if (polling) checkPolled(threads);
  const ioAfter = await readIo(pid);
  if (subject.log) growth.observe(await listLogFiles(server, subject.log));
  await server.query(DUMP_MARKER);
  const dump = await waitForNewDump(dumpDir, dumpsBefore);
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
