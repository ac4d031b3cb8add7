import { expect, test } from 'vitest';
import { loadEnvironment } from '../../src/config/env.ts';
import { coverageSettings } from './coverage-settings.ts';
import { coverageStudy } from './coverage-study.ts';

// npm run bench:coverage — do the 95% intervals keep their promise here? Two null controls, the A/A design and
// SQL_ERROR_LOG on OLTP (sysbench's statements never fail, so it logs nothing), run again and again with no added
// load, under a steady memory-bound load this script starts, and with that load switched on and off mid-run
// (suites/precision/coverage-study.ts does the study).

test('coverage of the 95% interval on null controls, with and without a background load', async () => {
  const settings = coverageSettings(process.env);
  const runs = await coverageStudy(loadEnvironment(), settings);
  expect(runs).toHaveLength(settings.runs * settings.conditions.length * settings.designs.length * 2);
});
