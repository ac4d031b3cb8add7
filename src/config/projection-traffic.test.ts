import { expect, test } from 'vitest';
import { defaultTraffic } from '../runs/default-traffic.ts';
import { trafficSchema } from './projection-traffic.ts';

test('the default profile is a valid traffic profile', () => {
  expect(trafficSchema.parse(defaultTraffic)).toEqual(defaultTraffic);
});

test('a profile parses, with failed logins defaulting to 0', () => {
  const given = {
    statementsPerS: { select: 10, write: 1, failing: 0 },
    connectionsPerS: 1,
    peakFactor: 2,
    freeDiskGb: 20,
  };
  expect(trafficSchema.parse(given)).toMatchObject({ name: 'custom', failedLoginsPerS: 0 });
});

test.for([
  [
    {
      statementsPerS: { select: 1, write: 1, failing: 0 },
      connectionsPerS: 1,
      peakFactor: 0.5,
      freeDiskGb: 1,
    },
    'peakFactor must be at least 1',
  ],
  [
    {
      statementsPerS: { select: -1, write: 1, failing: 0 },
      connectionsPerS: 1,
      peakFactor: 1,
      freeDiskGb: 1,
    },
    'select statements must be at least 0',
  ],
  [
    {
      statementsPerS: { select: 1, write: 1, failing: 0 },
      connectionsPerS: 1,
      peakFactor: 1,
      freeDiskGb: 1,
      qps: 3,
    },
    'qps',
  ],
] as [unknown, string][])('rejects %j', ([given, message]) => {
  const parsed = trafficSchema.safeParse(given);
  expect(parsed.success).toBe(false);
  expect(JSON.stringify(parsed.error?.issues)).toContain(message);
});
