import { describe, expect, test } from 'vitest';
import {
  alignIds,
  armsIdBound,
  digitsOf,
  type IdSource,
  MAX_MOVE_LOGINS,
  skipIterations,
  widthSkip,
} from './id-widths.ts';

/** The long way: walk the ids one by one and report the first start from which `statements` ids keep one width. */
function naiveSkip(nextId: number, statements: number): number {
  for (let start = nextId; ; start++) {
    const width = String(start).length;
    let same = true;
    for (let id = start; id < start + statements; id++) {
      if (String(id).length !== width) {
        same = false;
        break;
      }
    }
    if (same) return start - nextId;
  }
}

/** A connection-id source over a counter that moves by one a login; `logins()` says how many it made. */
function counterSource(start: number, maxUseUp?: number) {
  let id = start;
  let logins = 0;
  const source: IdSource = {
    what: 'connection id',
    read: async () => id,
    useUp: async (count) => {
      logins += count;
      id += count;
    },
    ...(maxUseUp === undefined ? {} : { maxUseUp }),
    warmupArmsWorth: 1,
  };
  return { source, logins: () => logins, id: () => id };
}

describe('ids of one width', () => {
  test.for([
    [1, 1],
    [9, 1],
    [10, 2],
    [99_999, 5],
    [100_000, 6],
  ])('digitsOf(%i) is %i', ([n, digits]) => {
    expect(digitsOf(n as number)).toBe(digits);
  });

  test.for([
    // The 150-transaction plan's six arms take ~19,000 ids; after a warm-up that ended short of 10,000:
    { nextId: 9_200, statements: 19_000, skip: 800 },
    // …or past it: nothing to do until 100,000.
    { nextId: 10_450, statements: 19_000, skip: 0 },
    { nextId: 81_001, statements: 19_000, skip: 100_000 - 81_001 },
    // Exactly filling the width is fine: the last id is 99,999.
    { nextId: 80_000, statements: 20_000, skip: 0 },
    { nextId: 80_001, statements: 20_000, skip: 19_999 },
    // More statements than ids of the next width hold: on to the one after.
    { nextId: 5, statements: 200, skip: 95 },
    { nextId: 1, statements: 1, skip: 0 },
  ])('from $nextId, $statements statements skip $skip ids', ({ nextId, statements, skip }) => {
    expect(widthSkip(nextId, statements)).toBe(skip);
  });

  test('agrees with walking the ids one by one', () => {
    for (const nextId of [1, 7, 9, 10, 95, 99, 100, 950, 999, 1_000, 8_888, 9_990]) {
      for (const statements of [1, 2, 5, 10, 11, 90, 91, 500, 5_000]) {
        expect(widthSkip(nextId, statements), `${nextId}, ${statements}`).toBe(naiveSkip(nextId, statements));
      }
    }
  });

  test('refuses ids and counts that are not positive integers', () => {
    expect(() => widthSkip(0, 10)).toThrow(/nextId must be a positive integer, got 0/);
    expect(() => widthSkip(10, 0)).toThrow(/count must be a positive integer, got 0/);
    expect(() => widthSkip(1.5, 10)).toThrow(/got 1.5/);
  });

  test('the bound scales the warm-up ids per arm to the measured arms, with a margin', () => {
    // A warm-up of three arms' worth took 10,200 ids; six measured arms take at most 1.5 × 6 × 3,400.
    expect(armsIdBound(10_200, 3, 6)).toBe(30_600);
    expect(() => armsIdBound(0, 3, 6)).toThrow(/positive counts/);
  });

  test('a connection id at 5 with six arms of one connection each moves on to 10', async () => {
    // The warm-up took 1 id (sysbench's connection): the bound is 1 × 6 arms × 1.5 = 9, and 6..14 crosses 10.
    const { source } = counterSource(5);
    const aligned = await alignIds(source, { before: 4, after: 5 }, 6);
    expect(aligned).toMatchObject({ afterWarmup: 5, warmupIds: 1, boundIds: 9, advancedBy: 4, first: 10 });
  });

  test.for([
    // No added traffic: the warm-up opens sysbench's one connection, so six arms take at most 1 × 6 × 1.5 = 9 ids.
    { last: 5, warmupIds: 1, logins: 4 },
    { last: 12, warmupIds: 1, logins: 0 },
    { last: 93, warmupIds: 1, logins: 6 },
    // 20 added connections a second at 1,500 TPS: 2 an arm, 6 in the warm-up, 7 ids in all; the bound is 63.
    { last: 20, warmupIds: 7, logins: 0 },
    { last: 40, warmupIds: 7, logins: 59 },
    { last: 5, warmupIds: 7, logins: 4 },
  ])(
    'connection id $last after a warm-up that took $warmupIds: $logins logins first',
    ({ last, warmupIds, logins }) => {
      const bound = armsIdBound(warmupIds, 1, 6);
      expect(widthSkip(last + 1, bound)).toBe(logins);
      expect(logins).toBeLessThanOrEqual(MAX_MOVE_LOGINS);
    },
  );

  test('connection ids move by one login each, re-read after the logins', async () => {
    const { source, logins } = counterSource(40, MAX_MOVE_LOGINS);
    const aligned = await alignIds(source, { before: 33, after: 40 }, 6);
    expect(aligned).toMatchObject({ warmupIds: 7, boundIds: 63, advancedBy: 59, first: 100 });
    expect(logins()).toBe(59);
  });

  test('a skip larger than the source may take leaves the ids where they are', async () => {
    const { source, id } = counterSource(950, 20);
    // 135 ids from 951 cross 1,000: 49 logins, more than 20.
    const aligned = await alignIds(source, { before: 935, after: 950 }, 6);
    expect(aligned).toMatchObject({ boundIds: 135, advancedBy: 0, first: 951 });
    expect(id()).toBe(950);
  });

  test('a source that takes fewer ids than asked is asked again until the width holds', async () => {
    let id = 9_000;
    const source: IdSource = {
      what: 'query id',
      read: async () => ++id,
      useUp: async (count) => {
        id += Math.max(1, Math.floor(count / 3));
      },
      warmupArmsWorth: 3,
    };
    const aligned = await alignIds(source, { before: 10, after: 9_000 }, 6);
    expect(aligned.boundIds).toBe(26_970);
    // Each read takes an id of its own, so the skip lands on 10,000 or just past it, never short.
    expect(aligned.first).toBeGreaterThanOrEqual(10_000);
    expect(aligned.first).toBeLessThan(10_005);
  });

  test.for([
    // The block takes 3 ids and 2 per iteration: never more than the skip.
    [4, 0],
    [5, 1],
    [6, 1],
    [7, 2],
    [90_003, 45_000],
  ])('a skip of %i ids sends a loop of %i iterations', ([skip, n]) => {
    expect(skipIterations(skip as number)).toBe(n);
    if ((n as number) > 0) expect(3 + 2 * (n as number)).toBeLessThanOrEqual(skip as number);
  });
});
