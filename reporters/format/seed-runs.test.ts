import { expect, test } from 'vitest';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
import { isStockRun, seedRuns } from './seed-runs.ts';

const [stock, inclUsers, idle, dml] = sweepReportInput().file.results;
const stockSettings = stock?.settings;
if (!stock || !stockSettings || !inclUsers || !idle || !dml)
  throw new Error('the sweep fixture holds four runs');

test("a stock run has the profile's own settings, no startup option and no option file", () => {
  expect([stock, inclUsers, idle, dml].map(isStockRun)).toEqual([true, false, false, false]);
  const withStartup = { ...stock, settings: { ...stockSettings, startup: { 'loose-x': '1' } } };
  expect(isStockRun(withStartup)).toBe(false);
  expect(isStockRun({ ...stock, settings: undefined })).toBe(false);
});

test("the seed's comparison takes each plugin once: its stock run wherever it is, else its first measured run", () => {
  expect(seedRuns([inclUsers, idle, stock, dml]).map((r) => r.runId)).toEqual(['server_audit']);
  expect(seedRuns([inclUsers, idle, dml]).map((r) => r.runId)).toEqual(['incl-users-app']);
  const unmeasured = { ...inclUsers, runId: 'never', measurement: null };
  expect(seedRuns([unmeasured, idle]).map((r) => r.runId)).toEqual(['ddl-dcl-from-cnf']);
});
