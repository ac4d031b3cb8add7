import mysql from 'mysql2/promise';
import { ADDED_KINDS, type AddedCounts, type AddedKind, addedKinds } from '../config/added-traffic.ts';
import { sysbenchDatabase } from '../config/lists.ts';
import type { MeasuredTraffic } from '../config/measured-traffic.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import type { ConnectionOptions } from '../servers/started-server.ts';

const WRONG_PASSWORD = 'auditbench-wrong-password';
const SCRATCH_TABLE = `\`${sysbenchDatabase}\`.auditbench_scratch`;
const SCRATCH_ACCOUNT = "'auditbench_scratch'@'localhost'";
const CONNECT_TIMEOUT_MS = 5_000;
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export const addedRates = (traffic: MeasuredTraffic): [AddedKind, number][] =>
  addedKinds.map((k): [AddedKind, number] => [k, traffic.added[ADDED_KINDS[k]]]).filter(([, r]) => r > 0);

/** Refuses a server that is not on this machine: the added load opens connections at a rate, locally only. */
export function assertLocal(conn: ConnectionOptions): void {
  if (conn.socketPath || LOCAL_HOSTS.has(conn.host)) return;
  throw new Error(
    `traffic.added sends connections and statements to 127.0.0.1 or a socket only, and this server is at ${conn.host}:${conn.port}: remove traffic.added for this target`,
  );
}

const connect = (conn: ConnectionOptions, user = conn.user, password = conn.password) =>
  mysql.createConnection({
    ...(conn.socketPath ? { socketPath: conn.socketPath } : { host: conn.host, port: conn.port }),
    user,
    password,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });

export interface AddedSessions {
  /** sysbench's account: the new connections and DDL log in as it. */
  app: ConnectionOptions;
  /** An administrator's account (the server's own): GRANT/REVOKE need it, as in production. */
  admin: ConnectionOptions;
  /** The account whose logins fail (wrong password). */
  failingUser: string;
}

/** One operation of a kind: the i-th (0-based), so CREATE and DROP, GRANT and REVOKE alternate. */
type Operation = (i: number) => Promise<void>;

/** A kind: which of the sessions it logs in as, and how it opens what it needs and makes its operation. */
interface KindOperations {
  session: keyof AddedSessions;
  start(s: AddedSessions, open: mysql.Connection[]): Promise<Operation>;
}

/** A session of its own for the kind's statements, closed with the others. */
async function session(conn: ConnectionOptions, open: mysql.Connection[]): Promise<mysql.Connection> {
  const c = await connect(conn);
  open.push(c);
  return c;
}

/** Each kind's operation; a new kind in ADDED_KINDS (src/config/added-traffic.ts) needs its entry here. */
const OPERATIONS: Record<AddedKind, KindOperations> = {
  connections: {
    session: 'app',
    start: async (s) => async () => {
      const c = await connect(s.app);
      try {
        await c.query('SELECT 1');
      } finally {
        await c.end().catch(() => c.destroy());
      }
    },
  },
  failedLogins: {
    session: 'failingUser',
    start: async (s) => async () => {
      const c = await connect(s.app, s.failingUser, WRONG_PASSWORD).catch((error: { errno?: number }) => {
        if (error.errno === 1045) return null;
        throw error;
      });
      if (c) {
        await c.end().catch(() => c.destroy());
        throw new Error(`a login as ${s.failingUser} with a wrong password succeeded`);
      }
    },
  },
  ddl: {
    session: 'app',
    async start(s, open) {
      const c = await session(s.app, open);
      await c.query(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`);
      return async (i) => {
        await c.query(i % 2 === 0 ? `CREATE TABLE ${SCRATCH_TABLE} (id INT)` : `DROP TABLE ${SCRATCH_TABLE}`);
      };
    },
  },
  dcl: {
    session: 'admin',
    async start(s, open) {
      const c = await session(s.admin, open);
      await c.query(`CREATE USER IF NOT EXISTS ${SCRATCH_ACCOUNT}`);
      return async (i) => {
        await c.query(
          i % 2 === 0
            ? `GRANT SELECT ON \`${sysbenchDatabase}\`.* TO ${SCRATCH_ACCOUNT}`
            : `REVOKE SELECT ON \`${sysbenchDatabase}\`.* FROM ${SCRATCH_ACCOUNT}`,
        );
      };
    },
  },
};

/** The sessions the kinds log in as (app, admin, failingUser), each once, in that order. */
export const sessionsOf = (kinds: readonly AddedKind[]): (keyof AddedSessions)[] =>
  (['app', 'admin', 'failingUser'] as const).filter((s) => kinds.some((k) => OPERATIONS[k].session === s));

// The clock's wait, cut short by a stop: the wait itself runs out on its own, at most one operation's interval later.
const sleep = (clock: Clock, ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', done, { once: true });
    clock.sleepMs(ms).then(done);
    function done() {
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Sends one kind at a fixed rate until stopped: the i-th operation is due at i/rate seconds; one that falls behind
 * (a slow server) is not made up for, so the load never bursts.
 */
async function paced(
  op: Operation,
  pace: { kind: AddedKind; perS: number; counts: AddedCounts; signal: AbortSignal; clock: Clock },
) {
  const { kind, perS, counts, signal, clock } = pace;
  const start = clock.nowMs();
  for (let i = 0; !signal.aborted; i++) {
    const dueMs = start + (i * 1000) / perS;
    if (clock.nowMs() - dueMs > 1000) i = Math.floor(((clock.nowMs() - start) * perS) / 1000);
    await sleep(clock, start + (i * 1000) / perS - clock.nowMs(), signal);
    if (signal.aborted) break;
    try {
      await op(i);
      counts[kind] += 1;
    } catch {
      counts.errors += 1;
    }
  }
}

export interface AddedLoad {
  /** Stops sending, waits for the operations in flight, closes the sessions. */
  stop(): Promise<void>;
}

/**
 * Starts traffic.added's load against a local server; it stops when `stop` is called or after `maxS` seconds,
 * whichever comes first, so a run that hangs cannot leave it running.
 */
export async function startAddedLoad(
  rates: [AddedKind, number][],
  sessions: AddedSessions,
  counts: AddedCounts,
  maxS: number,
  clock: Clock = realClock,
): Promise<AddedLoad> {
  assertLocal(sessions.app);
  const abort = new AbortController();
  const limit = setTimeout(() => abort.abort(), maxS * 1000);
  const open: mysql.Connection[] = [];
  const loops: Promise<void>[] = [];
  try {
    for (const [kind, perS] of rates) {
      loops.push(
        paced(await OPERATIONS[kind].start(sessions, open), {
          kind,
          perS,
          counts,
          signal: abort.signal,
          clock,
        }),
      );
    }
  } catch (error) {
    abort.abort();
    clearTimeout(limit);
    await Promise.allSettled(open.map((c) => c.end()));
    throw new Error(`traffic.added could not start: ${(error as Error).message}`, { cause: error });
  }
  return {
    async stop() {
      abort.abort();
      clearTimeout(limit);
      await Promise.allSettled(loops);
      await Promise.allSettled(open.map((c) => c.end().catch(() => c.destroy())));
    },
  };
}

/**
 * How many of each kind one counted arm of `transactions` sends: the rate per wall-clock transaction times the arm's
 * transactions. A server under valgrind runs about fifty times slower, so a rate per second would make the counted
 * mix fifty times richer in added operations than the one the wall clock measured. At least one of each kind, so a
 * configuration that audits only the added traffic is never counted idle; DDL and DCL in even numbers, so every arm
 * leaves the scratch table and grant as it found them.
 */
export function addedPerArm(
  rates: [AddedKind, number][],
  wallClockTps: number,
  transactions: number,
): [AddedKind, number][] {
  return rates.map(([kind, perS]) => {
    const n = Math.max(1, Math.round((transactions * perS) / wallClockTps));
    return [kind, (kind === 'ddl' || kind === 'dcl') && n % 2 === 1 ? n + 1 : n];
  });
}

/** Sends a fixed number of operations of each kind, one after another, then closes its sessions. */
export async function sendAddedOperations(
  plan: [AddedKind, number][],
  sessions: AddedSessions,
  counts: AddedCounts,
): Promise<void> {
  assertLocal(sessions.app);
  const open: mysql.Connection[] = [];
  try {
    for (const [kind, n] of plan) {
      const op = await OPERATIONS[kind].start(sessions, open);
      for (let i = 0; i < n; i++) {
        try {
          await op(i);
          counts[kind] += 1;
        } catch {
          counts.errors += 1;
        }
      }
    }
  } finally {
    await Promise.allSettled(open.map((c) => c.end().catch(() => c.destroy())));
  }
}
