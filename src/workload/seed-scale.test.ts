import { expect, test } from 'vitest';
import { SEED_MEMORY_BYTES, SEED_TABLE_ROWS, seedTableSize } from './seed-scale.ts';

const GiB = 2 ** 30;

test.for([
  // The seed's own machine, and anything larger, gets the seed's tables.
  [64 * GiB, 10_000_000],
  [256 * GiB, 10_000_000],
  // Half and a quarter of its memory: half and a quarter of its rows.
  [32 * GiB, 5_000_000],
  [16 * GiB, 2_500_000],
  // This VM (os.totalmem() 25,276,502,016 bytes, 23.5 GiB): 3,678,226 rows, rounded down to 10,000.
  [25_276_502_016, 3_670_000],
  // A "64 GB" machine reports less than 64 GiB (the kernel's reservations): a little under the seed's rows.
  [62.8 * GiB, 9_810_000],
  // 1 GiB: 156,250 rows, rounded down; below 640 MiB the floor holds, rather than tables that fit in any cache.
  [1 * GiB, 150_000],
  [512 * 2 ** 20, 100_000],
] as const)('%d bytes of memory give %d rows per table', ([bytes, rows]) => {
  expect(seedTableSize(bytes)).toBe(rows);
});

test('between the floor and the cap, rows per byte of memory are the seed’s, to within one step', () => {
  for (const gib of [2, 7, 12, 24, 48, 63]) {
    const rows = seedTableSize(gib * GiB);
    const seedRatio = SEED_TABLE_ROWS / SEED_MEMORY_BYTES;
    expect(rows % 10_000).toBe(0);
    expect(rows).toBeLessThanOrEqual(gib * GiB * seedRatio);
    expect(rows).toBeGreaterThan(gib * GiB * seedRatio - 10_000);
  }
});

test.for([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %d bytes, naming the value', (bytes) => {
  expect(() => seedTableSize(bytes)).toThrow(`got ${bytes}`);
});
