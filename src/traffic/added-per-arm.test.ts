import { expect, test } from 'vitest';
import { addedPerArm, sessionsOf } from './added-load.ts';

test('a rate per second becomes a count per counted arm, in proportion to the wall clock’s transactions', () => {
  // 20 new connections a second beside 1,000 transactions a second: 3 in an arm of 150 transactions.
  expect(addedPerArm([['connections', 20]], 1_000, 150)).toEqual([['connections', 3]]);
  // The warm-up arm sends three arms' transactions, and three times the operations.
  expect(addedPerArm([['connections', 20]], 1_000, 450)).toEqual([['connections', 9]]);
});

test('at least one of each kind, so traffic the plugin alone audits is never counted idle', () => {
  expect(addedPerArm([['failedLogins', 1]], 2_000, 150)).toEqual([['failedLogins', 1]]);
});

test('DDL and DCL come in even numbers: every arm leaves the scratch table and grant as it found them', () => {
  expect(
    addedPerArm(
      [
        ['ddl', 2],
        ['dcl', 7],
      ],
      100,
      150,
    ),
  ).toEqual([
    ['ddl', 4],
    ['dcl', 12],
  ]);
});

test('the accounts the added load logs in as: each session once, in a fixed order', () => {
  expect(sessionsOf(['failedLogins', 'dcl', 'ddl', 'connections'])).toEqual(['app', 'admin', 'failingUser']);
  expect(sessionsOf(['dcl'])).toEqual(['admin']);
  expect(sessionsOf([])).toEqual([]);
});
