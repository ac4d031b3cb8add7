import { type Clock, realClock } from '../machine/clock.ts';
import { SqlSession } from '../servers/sql-session.ts';
import type { StartedServer } from '../servers/started-server.ts';

/**
 * server_audit (and McAfee's log) writes the statement's query id and the connection's id on every line, so when
 * either gains a digit (9 → 10, 9,999 → 10,000) between two counted arms, the later arms log one more byte per line
 * for a reason that is not the plugin's configuration. Before the measured arms, each id is moved past the next power
 * of ten when the arms would cross it, so every arm logs ids of one width.
 */

/** Decimal digits of a non-negative integer: the width a log line gives it. */
export const digitsOf = (n: number): number => String(Math.trunc(Math.abs(n))).length;

/**
 * How many ids to use up before the arms so that the ids they take, `nextId` onwards for `count` of them, all have
 * one width; 0 when they already have. The skip ends on a power of ten, and repeats while the arms would still cross
 * the next one (more ids than the new width holds).
 */
export function widthSkip(nextId: number, count: number): number {
  if (!Number.isSafeInteger(nextId) || nextId < 1)
    throw new Error(`widthSkip: nextId must be a positive integer, got ${nextId}`);
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`widthSkip: count must be a positive integer, got ${count}`);
  let first = nextId;
  while (digitsOf(first) !== digitsOf(first + count - 1)) first = 10 ** digitsOf(first);
  return first - nextId;
}

/** The warm-up's ids per arm already overstate a measured arm's (its processlist polls); 1.5 is a generous bound. */
const BOUND_MARGIN = 1.5;

/**
 * An upper bound of the ids the measured arms take, from what the warm-up took: it ran `warmupArmsWorth` arms' worth
 * of the same work, plus the harness's switches, markers and processlist polls, which measured arms do not send.
 */
export function armsIdBound(warmupIds: number, warmupArmsWorth: number, arms: number): number {
  if (!(warmupIds > 0 && warmupArmsWorth > 0 && arms > 0))
    throw new Error(
      `armsIdBound needs positive counts, got warm-up ids ${warmupIds}, warm-up arms' worth ${warmupArmsWorth}, arms ${arms}`,
    );
  return Math.ceil((warmupIds / warmupArmsWorth) * arms * BOUND_MARGIN);
}

/**
 * Iterations of the loop that uses up at most `skip` query ids: MariaDB 10.11 gives the compound statement 3 ids and
 * each `WHILE … SET` iteration 2. Below 5 ids, single `DO 0` statements (1 id each) finish the skip.
 */
export function skipIterations(skip: number): number {
  return skip >= 5 ? Math.floor((skip - 3) / 2) : 0;
}

/** What the record keeps of one kind of id around the measured arms. */
export interface IdAlignment {
  /** The id read after the warm-up, and the ids the warm-up took. */
  afterWarmup: number;
  warmupIds: number;
  /** The upper bound of the ids the measured arms take (`armsIdBound`). */
  boundIds: number;
  /** Ids used up before the first measured arm so that all arms' ids have one width (0: none needed). */
  advancedBy: number;
  /** The first id the arms can take, and the latest one given out after them: one width when their digits agree. */
  first: number;
  last: number;
}

/** One kind of id: how to read the latest one given out, how to use some up, and how much of an arm the warm-up is. */
export interface IdSource {
  what: string;
  /** The latest id given out (the next one is larger), or null where the server does not show it. */
  read(): Promise<number | null>;
  /** Takes about `count` ids, never more; absent: the ids are read and reported, never moved. */
  useUp?(count: number): Promise<void>;
  /** The most ids one move may use up; a larger skip leaves the ids where they are (reported, not one width). */
  maxUseUp?: number;
  /** How many arms' worth of these ids the warm-up takes. */
  warmupArmsWorth: number;
}

const QUERY_ID_SQL = 'SELECT QUERY_ID AS id FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()';

async function readNumber(server: StartedServer, sql: string, column: string): Promise<number | null> {
  try {
    const { rows } = await server.query(sql);
    const id = Number(rows[0]?.[column]);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Query ids: the id of the statement that reads it (MariaDB's PROCESSLIST.QUERY_ID; MySQL has none), used up by a
 * compound statement whose loop takes two ids an iteration (no table, no object left behind), then `DO 0`.
 */
export function queryIds(server: StartedServer, warmupArmsWorth: number): IdSource {
  return {
    what: 'query id',
    read: () => readNumber(server, QUERY_ID_SQL, 'id'),
    async useUp(count) {
      const n = skipIterations(count);
      await server.query(
        n > 0
          ? `BEGIN NOT ATOMIC DECLARE i INT DEFAULT 0; WHILE i < ${n} DO SET i = i + 1; END WHILE; END`
          : 'DO 0',
      );
    },
    warmupArmsWorth,
  };
}

/**
 * Logins one move of connection ids may take: about 10 s under callgrind (100 took 1 s). A skip ends on the power of
 * ten the arms would cross, so it stays below the bound of their ids (or 100, from a one-digit id): a handful without
 * added traffic, some dozens with 20 connections a second. Only a bound in the thousands is left unmoved.
 */
export const MAX_MOVE_LOGINS = 1_000;

/**
 * Connection ids: the server's `Connections` counter is the id it gave the latest connection, used up by quick
 * logins of the harness's own account, one after another (a handshake each, no statement). Their threads stay in
 * the server's thread cache and may serve a later arm's sysbench; writes are counted over every connection thread
 * (`armWrites`), so that arm's writes still count. The warm-up opens the arm's own connections once and the added
 * traffic's three times over: one arm's worth, at least.
 */
export function connectionIds(server: StartedServer): IdSource {
  return {
    what: 'connection id',
    read: () => readNumber(server, "SHOW GLOBAL STATUS LIKE 'Connections'", 'Value'),
    async useUp(count) {
      for (let i = 0; i < count; i++) {
        const session = new SqlSession(server.connection);
        try {
          await session.connectionId();
        } finally {
          await session.close();
        }
      }
    },
    maxUseUp: MAX_MOVE_LOGINS,
    warmupArmsWorth: 1,
  };
}

/**
 * Before the first measured arm: bounds the ids the arms take from what the warm-up took (`beforeWarmup` to
 * `afterWarmup`) and uses ids up to the power of ten they would cross (`widthSkip`), re-reading after each round, so
 * another server's rate per statement costs a round more, never a wrong width.
 */
export async function alignIds(
  source: IdSource,
  warmup: { before: number; after: number },
  arms: number,
  clock: Clock = realClock,
): Promise<Omit<IdAlignment, 'last'> & { seconds: number }> {
  const warmupIds = Math.max(1, warmup.after - warmup.before);
  const boundIds = armsIdBound(warmupIds, source.warmupArmsWorth, arms);
  const started = clock.nowMs();
  const start = (await source.read()) ?? warmup.after;
  let id = start;
  for (let round = 0; round < 100; round++) {
    const skip = widthSkip(id + 1, boundIds);
    if (skip === 0 || !source.useUp || skip > (source.maxUseUp ?? Number.POSITIVE_INFINITY)) {
      const seconds = (clock.nowMs() - started) / 1000;
      return {
        afterWarmup: warmup.after,
        warmupIds,
        boundIds,
        advancedBy: id - start,
        first: id + 1,
        seconds,
      };
    }
    await source.useUp(skip);
    id = (await source.read()) ?? id;
  }
  throw new Error(
    `The counted server's ${source.what} did not pass a power of ten within 100 rounds (at ${id})`,
  );
}

/**
 * Before the first measured arm: moves connection ids (quick logins) and query ids (a loop) past a power of ten the
 * arms would cross (`alignIds`), so every arm's audit lines carry ids of one width. Connection ids go first: each
 * login takes no query id, and the query ids are read again before they move.
 */
export async function alignAll(
  sources: readonly IdSource[],
  beforeWarmup: (number | null)[],
  arms: number,
  progress: (message: string) => void,
  clock: Clock = realClock,
): Promise<(Omit<IdAlignment, 'last'> | null)[]> {
  const afterWarmup = await Promise.all(sources.map((source) => source.read()));
  const out: (Omit<IdAlignment, 'last'> | null)[] = [];
  for (const [i, source] of sources.entries()) {
    const before = beforeWarmup[i];
    const after = afterWarmup[i];
    if (before === null || before === undefined || after === null || after === undefined) {
      out.push(null);
      continue;
    }
    const { seconds, ...alignment } = await alignIds(source, { before, after }, arms, clock);
    if (alignment.advancedBy > 0)
      progress(
        `${source.what} moved ${alignment.advancedBy} on in ${seconds.toFixed(1)} s: the arms take ids from ${alignment.first}, at most ${alignment.boundIds} of them, all of one width`,
      );
    else if (digitsOf(alignment.first) !== digitsOf(alignment.first + alignment.boundIds - 1))
      progress(
        `${source.what} not moved: the arms take ids from ${alignment.first}, up to ${alignment.boundIds} of them, across a power of ten, and moving past it would take more than ${source.maxUseUp} ids`,
      );
    out.push(alignment);
  }
  return out;
}
