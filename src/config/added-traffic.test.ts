import { expect, test } from 'vitest';
import { ADDED_KINDS, addedKinds, addedRatesSchema, noAddedCounts, noAddedRates } from './added-traffic.ts';
import { mergeMeasuredTraffic } from './measured-traffic.ts';

test('every kind has its rate field, its zero rate and its zero count', () => {
  expect(addedKinds).toEqual(['connections', 'failedLogins', 'ddl', 'dcl']);
  expect(noAddedRates()).toEqual({ connectionsPerS: 0, failedLoginsPerS: 0, ddlPerS: 0, dclPerS: 0 });
  expect(noAddedCounts()).toEqual({ connections: 0, failedLogins: 0, ddl: 0, dcl: 0, errors: 0 });
  // A rate field added to the schema without its kind would be taken and never sent.
  expect(Object.values(ADDED_KINDS).sort()).toEqual(Object.keys(addedRatesSchema.shape).sort());
});

test('the schema takes any of the rates, each 0 to 200 per second, and refuses a field that is no kind', () => {
  expect(addedRatesSchema.parse({ ddlPerS: 10 })).toEqual({ ddlPerS: 10 });
  expect(addedRatesSchema.safeParse({ dclPerS: 201 }).error?.issues[0]?.message).toBe(
    'dclPerS above 200/s would be the load itself',
  );
  expect(addedRatesSchema.safeParse({ connectionsPerS: -1 }).error?.issues[0]?.message).toBe(
    'connectionsPerS must be at least 0 per second',
  );
  expect(addedRatesSchema.safeParse({ rollbacksPerS: 1 }).success).toBe(false);
});

test("a run's rates are its own over the configuration's over zero", () => {
  const traffic = mergeMeasuredTraffic(
    { added: { ddlPerS: 5, dclPerS: 1 } },
    { added: { dclPerS: 2 } },
    null,
  );
  expect(traffic.added).toEqual({ ...noAddedRates(), ddlPerS: 5, dclPerS: 2 });
});
