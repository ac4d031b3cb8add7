import type { StartedServer } from '../servers/started-server.ts';

/**
 * server_audit (and McAfee's log) writes the statement's query id on every line, so when the server's query id
 * gains a digit (9,999 → 10,000, 99,999 → 100,000) between two counted arms, the later arms log one more byte per line
 * for a reason that is not the plugin's configuration. Before the measured arms, the id is moved past the next power
 * of ten when the arms' statements would cross it, so every arm logs ids of one width.
 */

/** Decimal digits of a non-negative integer: the width a log line gives it. */
export const digitsOf = (n: number): number => String(Math.trunc(Math.abs(n))).length;

/**
 * How many query ids to use up before the arms so that the ids they take, `nextId` onwards for `statements`
 * statements, all have one width; 0 when they already have. The skip ends on a power of ten, and repeats while the
 * statements would still cross the next one (more statements than ids of the new width hold).
 */
export function queryIdSkip(nextId: number, statements: number): number {
  if (!Number.isSafeInteger(nextId) || nextId < 1)
    throw new Error(`queryIdSkip: nextId must be a positive integer, got ${nextId}`);
  if (!Number.isSafeInteger(statements) || statements < 1)
    throw new Error(`queryIdSkip: statements must be a positive integer, got ${statements}`);
  let first = nextId;
  while (digitsOf(first) !== digitsOf(first + statements - 1)) first = 10 ** digitsOf(first);
  return first - nextId;
}

/**
 * An upper bound of the statements the measured arms send (and so of the query ids they take), from what the warm-up
 * took: it ran `warmupArms` arms' worth of the same transactions and added traffic, plus the harness's switches,
 * markers and its processlist polls, which measured arms do not send. The margin covers arm-to-arm differences.
 */
export function armsQueryIdBound(warmupIds: number, warmupArms: number, arms: number): number {
  if (!(warmupIds > 0 && warmupArms > 0 && arms > 0))
    throw new Error(
      `armsQueryIdBound needs positive counts, got warm-up ids ${warmupIds}, warm-up arms ${warmupArms}, arms ${arms}`,
    );
  return Math.ceil((warmupIds / warmupArms) * arms * BOUND_MARGIN);
}

/** The warm-up's ids per arm already overstate a measured arm's (its processlist polls); 1.5 is a generous bound. */
const BOUND_MARGIN = 1.5;

/**
 * Iterations of the block `alignQueryId` sends to use up at most `skip` ids: MariaDB 10.11 gives the block 3 ids and
 * each `WHILE … SET` iteration 2. Below 5 ids, single `DO 0` statements (1 id each) finish the skip.
 */
export function skipIterations(skip: number): number {
  return skip >= 5 ? Math.floor((skip - 3) / 2) : 0;
}

/** What the record keeps of the query ids around the measured arms. */
export interface QueryIdAlignment {
  /** The id read after the warm-up, and the ids the warm-up took. */
  afterWarmup: number;
  warmupIds: number;
  /** The upper bound of the ids the measured arms take (`armsQueryIdBound`). */
  boundIds: number;
  /** Ids used up before the first measured arm so that all arms' ids have one width (0: none needed). */
  advancedBy: number;
  /** The ids read before the first measured arm and after the last: one width when their digits agree. */
  first: number;
  last: number;
}

const QUERY_ID_SQL = 'SELECT QUERY_ID AS id FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()';

/**
 * The query id of the statement that reads it (MariaDB's PROCESSLIST.QUERY_ID), or null where the server has no such
 * column (MySQL): the next statement gets a larger one.
 */
export async function readQueryId(server: StartedServer): Promise<number | null> {
  try {
    const { rows } = await server.query(QUERY_ID_SQL);
    const id = Number(rows[0]?.id);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Uses up query ids until the `boundIds` statements that follow take ids of one width: a compound statement whose
 * loop takes two ids an iteration (no table, no object left behind), then `DO 0` for the last few. Each round
 * re-reads the id, so another server's rate per iteration costs a round more, never a wrong width.
 */
export async function skipQueryIds(
  server: StartedServer,
  boundIds: number,
): Promise<{ advancedBy: number; first: number }> {
  const start = await readQueryId(server);
  if (start === null) throw new Error('The counted server has no information_schema.PROCESSLIST.QUERY_ID');
  let id = start;
  for (let round = 0; round < 1000; round++) {
    const skip = queryIdSkip(id + 1, boundIds);
    if (skip === 0) return { advancedBy: id - start, first: id };
    const n = skipIterations(skip);
    await server.query(
      n > 0
        ? `BEGIN NOT ATOMIC DECLARE i INT DEFAULT 0; WHILE i < ${n} DO SET i = i + 1; END WHILE; END`
        : 'DO 0',
    );
    id = (await readQueryId(server)) ?? id;
  }
  throw new Error(`The counted server's query id did not pass a power of ten within 1000 rounds (at ${id})`);
}
